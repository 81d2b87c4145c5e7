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

/** What the web app's components/ and lib/ never import: they serve every feature. */
const WEB_UPPER_LAYERS = ['**/features/**', '**/routes/**', '**/app/**'];
const WEB_LOWER_LAYER_MESSAGE =
  'components/ and lib/ import no feature, route or app module: they serve every page (the app shell lives in app/layout).';
/** Another route module, seen from a route. */
const OTHER_ROUTES = ['./*', '**/routes/**'];
const OTHER_ROUTES_MESSAGE =
  'A route imports no other route: what two pages share belongs in a feature or in components/.';
/**
 * A feature's internals: the files of its subfolders (a subfolder is entered through its index)
 * and its test helpers. Its public entry files are the modules at the top of its folder.
 */
const FEATURE_INTERNALS = ['**/features/*/*/*', '**/features/*/testing'];
const FEATURE_INTERNALS_MESSAGE =
  "Routes import a feature's public entry files only (the modules at the top of its folder, or a subfolder's index), never its subfolders' files or its test helpers.";

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
  // The web app's layers: routes compose features; features build on components/ and lib/;
  // nothing below reaches back up. Each rule has a planted import that must make it fire
  // (apps/web/src/app/import-rules.test.ts); tests may import any helper.
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: WEB_UPPER_LAYERS, message: WEB_LOWER_LAYER_MESSAGE }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > Literal[value=/(^|\\/)(features|routes|app)\\//]',
          message: WEB_LOWER_LAYER_MESSAGE,
        },
      ],
    },
  },
  {
    files: ['apps/web/src/routes/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: OTHER_ROUTES, message: OTHER_ROUTES_MESSAGE },
            { group: FEATURE_INTERNALS, message: FEATURE_INTERNALS_MESSAGE },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > Literal[value=/^\\.\\/|(^|\\/)routes\\//]',
          message: OTHER_ROUTES_MESSAGE,
        },
        {
          selector:
            'ImportExpression > Literal[value=/(^|\\/)features\\/[^/]+\\/([^/]+\\/[^/]+|testing)$/]',
          message: FEATURE_INTERNALS_MESSAGE,
        },
      ],
    },
  },
);
