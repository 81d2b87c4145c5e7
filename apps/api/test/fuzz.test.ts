// The API fuzzed from its own OpenAPI document: schemathesis
// (scripts/lib.sh ensure_schemathesis installs it) runs every operation of /api/openapi.json
// against the real app on a port, over this suite's own Postgres database and Redis prefix,
// signed in as a real user with credits, a checked upload session and a trained model;
// operations that end a session or change the account get throw-away users (test/fuzz/hooks.py).
// A fixed seed, 25 examples per operation, every check: no 5xx, no answer unlike its schema or
// status codes, no schema-valid request refused, no schema-invalid one accepted. A failure shows
// schemathesis' report (each failure with a curl line that reproduces it); the full output and the
// API's error log are kept in .local/fuzz-report/. A longer random run: bench/fuzz-long.ts.
import { createTestDatabase } from '@studioshot/db/testing';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import {
  REPO_ROOT,
  runSchemathesis,
  seedFuzzUser,
  startFuzzTarget,
  type FuzzTarget,
  type FuzzUser,
} from './fuzz/harness.js';

const FUZZ_SEED = 20261125;
const FUZZ_MAX_EXAMPLES = 25;
const REPORT_DIR = path.join(REPO_ROOT, '.local/fuzz-report');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let target: FuzzTarget;
let user: FuzzUser;

beforeAll(async () => {
  database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
  target = await startFuzzTarget({
    databaseUrl: database.url,
    redisUrl: inject('redisUrl'),
    logFile: path.join(REPORT_DIR, 'api.log'),
  });
  user = await seedFuzzUser(target);
});

afterAll(async () => {
  await target?.close();
  await database?.drop();
});

/** From schemathesis' FAILURES header to its closing line: what a reader needs. */
function failureReport(output: string): string {
  const start = output.indexOf('FAILURES');
  const from = start < 0 ? output : output.slice(output.lastIndexOf('\n', start) + 1);
  return from.length > 20_000 ? `${from.slice(0, 20_000)}\n[... cut: see the full output]` : from;
}

it(`every documented operation holds under schemathesis (seed ${FUZZ_SEED}, ${FUZZ_MAX_EXAMPLES} examples each, all checks)`, async () => {
  const run = await runSchemathesis({
    target,
    user,
    seed: FUZZ_SEED,
    maxExamples: FUZZ_MAX_EXAMPLES,
    reportDir: REPORT_DIR,
  });
  await writeFile(path.join(REPORT_DIR, 'schemathesis.txt'), run.output);
  console.log(
    `schemathesis: exit ${run.exitCode} in ${run.seconds.toFixed(1)} s; ` +
      `${run.output.match(/\d+ generated[^\n]*/)?.[0] ?? ''}`,
  );
  expect(
    run.exitCode,
    `schemathesis found problems (full output: .local/fuzz-report/schemathesis.txt; ` +
      `the API's error log: .local/fuzz-report/api.log):\n\n${failureReport(run.output)}`,
  ).toBe(0);
  // No wall-clock assertion: on a loaded machine the run is slower, not wrong. Its duration is in
  // the log above and in the suite's timing; the limit below only stops a hung run.
}, 1_200_000);
