// The longer, random fuzz run of the API: the same harness as the fixed-seed run in
// `npm test` (apps/api/test/fuzz.test.ts), but no fixed seed and many more examples per operation.
// Failures are reported, not fatal: the figures and schemathesis' report go to
// results/fuzz-long.{json,md} and results/fuzz-long.txt.
//   FUZZ_EXAMPLES (default 250)   examples per operation
//   FUZZ_MAX_SECONDS (default 1200) time budget for the whole run (schemathesis --max-time)
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSchemathesis, seedFuzzUser, startFuzzTarget } from '../apps/api/test/fuzz/harness.js';
import { machine, requireEnv, ROOT, writeResult } from './common.js';

const examples = Number(process.env.FUZZ_EXAMPLES ?? 250);
const maxSeconds = Number(process.env.FUZZ_MAX_SECONDS ?? 1200);

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const scratch = await mkdtemp(path.join(tmpdir(), 'studioshot-fuzz-long-'));
const target = await startFuzzTarget({
  databaseUrl: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  redisUrl: requireEnv('REDIS_URL'),
  logFile: path.join(scratch, 'api.log'),
});

try {
  const user = await seedFuzzUser(target);
  const run = await runSchemathesis({
    target,
    user,
    maxExamples: examples,
    reportDir: path.join(scratch, 'report'),
    args: ['--max-time', String(maxSeconds)],
    echo: (chunk) => process.stdout.write(chunk),
  });
  const output = run.output;
  // schemathesis' random seeds are 128-bit: kept as text.
  const seed = /Seed: (\d+)/.exec(output)?.[1] ?? 'unknown';
  const generated = Number(/(\d+) generated/.exec(output)?.[1] ?? NaN);
  const failures = Number(/(\d+) unique failures?/.exec(output)?.[1] ?? 0);
  const operations = Number(/Tested: (\d+)/.exec(output)?.[1] ?? NaN);
  // Every response the API gave, from schemathesis' event log: how many were 5xx.
  const reportFiles = await readdir(path.join(scratch, 'report'));
  const ndjson = reportFiles.find((name) => name.endsWith('.ndjson'));
  const statuses: Record<string, number> = {};
  if (ndjson) {
    const text = await readFile(path.join(scratch, 'report', ndjson), 'utf8');
    for (const match of text.matchAll(/"status_code":\s*(\d{3})/g)) {
      const family = `${match[1]![0]}xx`;
      statuses[family] = (statuses[family] ?? 0) + 1;
    }
  }
  const apiErrors = (await readFile(target.logFile, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.includes('"unhandled error"')).length;
  const result = {
    machine: machine(),
    schemathesis_exit: run.exitCode,
    seed,
    max_examples_per_operation: examples,
    max_seconds: maxSeconds,
    seconds: Math.round(run.seconds),
    operations,
    test_cases: generated,
    unique_failures: failures,
    responses_by_status: statuses,
    api_unhandled_errors: apiErrors,
  };
  await writeFile(path.join(ROOT, 'bench/results/fuzz-long.txt'), output);
  writeResult(
    'fuzz-long',
    result,
    [
      '# fuzz-long: schemathesis, random seed, all checks',
      '',
      `${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.date}`,
      '',
      '| figure | value |',
      '| --- | --- |',
      `| seed (random) | ${seed} |`,
      `| examples per operation (at most) | ${examples} |`,
      `| operations | ${operations} |`,
      `| test cases | ${generated} |`,
      `| time | ${result.seconds} s (budget ${maxSeconds} s) |`,
      `| responses 2xx / 3xx / 4xx / 5xx | ${['2xx', '3xx', '4xx', '5xx'].map((f) => statuses[f] ?? 0).join(' / ')} |`,
      `| unhandled errors in the API log | ${apiErrors} |`,
      `| unique failures | ${failures} |`,
      '',
      'Full report: `fuzz-long.txt`.',
      '',
    ].join('\n'),
  );
  console.log(JSON.stringify(result, null, 2));
} finally {
  await target.close();
  await dropDatabase(adminUrl, database);
  await rm(scratch, { recursive: true, force: true });
}
process.exit(0);
