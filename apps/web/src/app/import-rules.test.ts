// The web app's layers as eslint rules (eslint.config.js): each is shown firing on planted bad
// imports, static and dynamic, beside good ones it lets through.
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of the restricted-import and restricted-syntax rules, linting `code` as `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, 'apps/web/src', file) });
  return result!.messages
    .filter((m) =>
      ['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'].includes(m.ruleId ?? ''),
    )
    .map((m) => m.message);
}

const staticImport = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
const dynamicImport = (from: string) => `export const load = () => import('${from}');\n`;

describe('web layers (eslint)', () => {
  it('components/ and lib/ import no feature, route or app module', async () => {
    const planted = {
      'components/Planted.tsx': [
        '../features/auth/session-store',
        '../routes/not-found',
        '../app/layout/AppShell',
      ],
      'components/art/Planted.tsx': ['../../features/training/hooks'],
      'lib/planted.ts': ['../features/payments/hooks', '../app/router'],
    };
    for (const [file, sources] of Object.entries(planted))
      for (const from of sources)
        for (const code of [staticImport(from), dynamicImport(from)])
          expect(await boundaryErrors(file, code)).toEqual([
            expect.stringContaining('components/ and lib/ import no feature, route or app module'),
          ]);
    for (const [file, from] of [
      ['components/Planted.tsx', './PageState'],
      ['components/Planted.tsx', '../lib/api-client'],
      ['lib/planted.ts', './storage'],
      ['lib/planted.ts', '@studioshot/contracts'],
    ] as const) {
      expect(await boundaryErrors(file, staticImport(from))).toEqual([]);
      expect(await boundaryErrors(file, dynamicImport(from))).toEqual([]);
    }
  });

  it('a route imports no other route', async () => {
    for (const from of ['./not-found', './training-start', '../routes/payment'])
      for (const code of [staticImport(from), dynamicImport(from)])
        expect(await boundaryErrors('routes/planted.tsx', code)).toEqual([
          expect.stringContaining('A route imports no other route'),
        ]);
    expect(
      await boundaryErrors('routes/planted.tsx', staticImport('../components/NotFoundPage')),
    ).toEqual([]);
  });

  it("routes import a feature's public entry files only", async () => {
    for (const from of [
      '../features/generation/studio/TemplateStudio',
      '../features/generation/legacy/GenerateRow',
      '../features/upload/testing',
    ])
      for (const code of [staticImport(from), dynamicImport(from)])
        expect(await boundaryErrors('routes/planted.tsx', code)).toEqual([
          expect.stringContaining("Routes import a feature's public entry files only"),
        ]);
    for (const from of [
      '../features/upload/use-upload-session',
      '../features/generation/studio',
      '../features/home/LandingSections',
    ]) {
      expect(await boundaryErrors('routes/planted.tsx', staticImport(from))).toEqual([]);
      expect(await boundaryErrors('routes/planted.tsx', dynamicImport(from))).toEqual([]);
    }
  });

  it('tests may import any helper', async () => {
    const code = `${staticImport('../features/upload/testing')}${staticImport('./old-demo').replace('{ x }', '{ z }')}`;
    expect(await boundaryErrors('routes/planted.test.tsx', code)).toEqual([]);
  });
});
