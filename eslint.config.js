// Flat config shared by the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Kysely calls that take a table. */
const KYSELY_TABLE_CALLS =
  '/^(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral)$/';
/** The models table, with or without an alias. */
const MODELS_TABLE = '/^models(\\s+as\\s+\\w+)?$/';
const MODELS_HOME =
  "The models table is read and written only through packages/db's models module (selectModels, insertModel, modelFailed...).";

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '.local/**',
      '**/.venv/**',
      '**/.venv-flux/**',
      'bench/results/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The models table has one home (packages/db/src/models.ts): no other server code names it.
    files: ['apps/api/src/**/*.ts', 'apps/worker/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['packages/db/src/models.ts', 'packages/db/src/migrations/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=${KYSELY_TABLE_CALLS}] > Literal[value=${MODELS_TABLE}]`,
          message: MODELS_HOME,
        },
        {
          selector: `TSIndexedAccessType > TSLiteralType > Literal[value=${MODELS_TABLE}]`,
          message: MODELS_HOME,
        },
        {
          selector: 'TemplateElement[value.raw=/\\b(from|join|update|into)\\s+models\\b/i]',
          message: MODELS_HOME,
        },
      ],
    },
  },
  // Layer boundaries (docs/internals.md, "API layering"). Each rule has a planted import that must make it fire
  // (apps/api/test/layer-rules.test.ts); none may be switched off with a disable comment.
  {
    files: [
      'apps/api/src/routes/**/*.ts',
      'apps/api/src/middleware/**/*.ts',
      'apps/api/src/ws/**/*.ts',
      'apps/api/src/*/*.routes.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/repositories/**', '**/*.repository.js', '**/payment-providers/**'],
              allowTypeImports: true,
              message:
                'Routes, middleware and ws take repositories by type only: the container hands them in.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/services/**/*.ts', 'apps/api/src/*/*.service.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/routes/**',
                '**/*.routes.js',
                '**/middleware/**',
                '**/scheduling/scheduled-work.js',
                '**/container.js',
                '**/area.js',
                '**/areas/**',
                '**/app.js',
                '**/server.js',
                '**/ws/**',
              ],
              message:
                'Services import nothing from routes, middleware or the wiring (container, scheduled work): those call services, not the other way.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@studioshot/api',
                '@studioshot/api/*',
                '@studioshot/worker',
                '@studioshot/worker/*',
                '@studioshot/web',
                '@studioshot/web/*',
                '**/apps/**',
              ],
              message: 'Packages import no app: the apps build on the packages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/worker/src/bridge/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine/**', '**/engine'],
              message:
                "The worker's bridge speaks to the Python engine over its protocol only (packages/contracts): nothing from the engine's folder.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
