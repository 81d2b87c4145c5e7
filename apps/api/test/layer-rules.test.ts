// The checks that keep the structure (docs/internals.md, 'API layering'): each eslint boundary rule and
// the import-cycle check is shown firing on one planted bad import, beside a good one it lets
// through, and no source file switches one of them off.
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of the restricted-import and restricted-syntax rules, linting `code` as `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages
    .filter((m) =>
      ['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'].includes(m.ruleId ?? ''),
    )
    .map((m) => m.message);
}

describe('layer boundaries (eslint)', () => {
  it('routes, middleware and ws take repositories by type only', async () => {
    for (const file of [
      'apps/api/src/routes/planted.routes.ts',
      'apps/api/src/middleware/planted.ts',
      'apps/api/src/ws/planted.ts',
      'apps/api/src/money/planted.routes.ts',
    ]) {
      const from = path.relative(
        path.dirname(path.join(ROOT, file)),
        path.join(ROOT, 'apps/api/src'),
      );
      const bad = `import { UsersRepository } from '${from}/repositories/users.repository.js';\nexport const r = UsersRepository;\n`;
      expect(await boundaryErrors(file, bad)).toEqual([
        expect.stringContaining('take repositories by type only'),
      ]);
      const good = `import type { UsersRepository } from '${from}/repositories/users.repository.js';\nexport type R = UsersRepository;\n`;
      expect(await boundaryErrors(file, good)).toEqual([]);
    }
  });

  it('services import nothing from routes, middleware or the wiring', async () => {
    const planted = {
      'apps/api/src/services/planted.service.ts': [
        "import type { Caller } from '../middleware/auth.js';",
        "import { trainingRoutes } from '../routes/training.routes.js';",
        "import { registerScheduledWork } from '../scheduling/scheduled-work.js';",
        "import type { Container } from '../container.js';",
      ],
      'apps/api/src/money/planted.service.ts': [
        "import { paymentsRoutes } from './payments.routes.js';",
      ],
    };
    for (const [file, imports] of Object.entries(planted))
      for (const line of imports)
        expect(await boundaryErrors(file, `${line}\nexport {};\n`)).toEqual([
          expect.stringContaining('Services import nothing from routes, middleware or the wiring'),
        ]);
    // The facility itself is not wiring: a service may queue timed work on it.
    expect(
      await boundaryErrors(
        'apps/api/src/services/planted.service.ts',
        "import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';\nexport type S = ScheduledJobs;\n",
      ),
    ).toEqual([]);
  });

  it('packages import no app', async () => {
    for (const line of [
      "import { createContainer } from '@studioshot/api/container';",
      "import { createContainer } from '../../../apps/api/src/container.js';",
    ])
      expect(await boundaryErrors('packages/db/src/planted.ts', `${line}\nexport {};\n`)).toEqual([
        expect.stringContaining('Packages import no app'),
      ]);
  });

  it("the worker's bridge imports nothing from the engine's folder", async () => {
    const bad =
      "import schema from '../../engine/studioshot_engine/protocol.json';\nexport { schema };\n";
    expect(await boundaryErrors('apps/worker/src/bridge/planted.ts', bad)).toEqual([
      expect.stringContaining("The worker's bridge speaks to the Python engine over its protocol"),
    ]);
    const good = "import { QUEUES } from '@studioshot/contracts';\nexport { QUEUES };\n";
    expect(await boundaryErrors('apps/worker/src/bridge/planted.ts', good)).toEqual([]);
  });

  it("only packages/db's models module names the models table", async () => {
    const planted = [
      "import type { Db } from '@studioshot/db';\nexport const q = (db: Db) => db.selectFrom('models').selectAll();\n",
      "import type { Db } from '@studioshot/db';\nexport const q = (db: Db) => db.selectFrom('tasks as t').innerJoin('models as m', 'm.id', 't.model_id');\n",
      "import type { Database } from '@studioshot/db';\nexport type M = Database['models'];\n",
      "import { sql } from 'kysely';\nexport const q = sql`SELECT 1 FROM models`;\n",
    ];
    for (const file of ['apps/api/src/repositories/planted.ts', 'apps/worker/src/planted.ts'])
      for (const code of planted)
        expect(await boundaryErrors(file, code)).toEqual([
          expect.stringContaining("packages/db's models module"),
        ]);
    // The storage layout's 'models/' key segment is not the table.
    expect(
      await boundaryErrors(
        'packages/storage/src/planted.ts',
        "export const isModel = (p: string) => p === 'models';\n",
      ),
    ).toEqual([]);
  });

  it('no source file switches a boundary rule off', () => {
    let found = '';
    try {
      found = execFileSync(
        'git',
        [
          'grep',
          '-n',
          '-E',
          'eslint-disable.*no-restricted-(imports|syntax)',
          '--',
          'apps',
          'packages',
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
    } catch (error) {
      // git grep answers 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(found).toBe('');
  });
});

describe('import cycles (dependency-cruiser)', () => {
  const config = createRequire(import.meta.url)(
    path.join(ROOT, '.dependency-cruiser.cjs'),
  ) as IConfiguration;
  const planted = mkdtempSync(path.join(tmpdir(), 'planted-cycle-'));
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  async function circles(files: Record<string, string>): Promise<string[]> {
    for (const [name, code] of Object.entries(files)) writeFileSync(path.join(planted, name), code);
    const result = await cruise([planted], {
      validate: true,
      ...config.options,
      ruleSet: { forbidden: config.forbidden },
    });
    if (typeof result.output === 'string') throw new Error(result.output);
    return result.output.summary.violations.map((v) => v.rule.name);
  }

  it('finds a circle made of type imports only', async () => {
    expect(
      await circles({
        'a.ts': "import type { B } from './b.js';\nexport type A = B | 1;\n",
        'b.ts': "import type { A } from './a.js';\nexport type B = A[];\n",
      }),
    ).toContain('no-circular');
  });

  it('lets a chain through', async () => {
    expect(
      await circles({
        'a.ts': "import type { B } from './b.js';\nexport type A = B | 1;\n",
        'b.ts': 'export type B = string;\n',
      }),
    ).toEqual([]);
  });
});
