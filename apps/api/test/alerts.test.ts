import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetMetrics } from '../src/services/fleet-metrics.js';

// The alerts (infra/monitoring/prometheus-rules.yaml, a PrometheusRule) checked by Prometheus's
// own promtool: the rules parse, and its unit tests (prometheus-rules.test.yaml) see each alert
// fire on the series it watches, after its `for`. Every series a rule reads is one we export.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MONITORING = path.join(ROOT, 'infra/monitoring');
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';

let work: string;
let rules: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'studioshot-alerts-'));
  rules = await readFile(path.join(MONITORING, 'prometheus-rules.yaml'), 'utf8');
  // promtool reads a plain rules file: the PrometheusRule's spec, one level less indented.
  const spec = rules.slice(rules.indexOf('\nspec:\n') + '\nspec:\n'.length);
  await writeFile(path.join(work, 'prometheus-rules.groups.yaml'), spec.replace(/^ {2}/gm, ''));
  await copyFile(
    path.join(MONITORING, 'prometheus-rules.test.yaml'),
    path.join(work, 'prometheus-rules.test.yaml'),
  );
});
afterAll(() => work && rm(work, { recursive: true, force: true }));

const promtool = (...args: string[]) =>
  execFileSync(PROMTOOL, args, { cwd: work, encoding: 'utf8', stdio: 'pipe' });

describe('alerts', () => {
  it('is a PrometheusRule', () => {
    expect(rules).toMatch(/^apiVersion: monitoring\.coreos\.com\/v1\nkind: PrometheusRule\n/m);
  });

  it('promtool check rules: every rule parses', () => {
    expect(promtool('check', 'rules', 'prometheus-rules.groups.yaml')).toMatch(
      /SUCCESS: 7 rules found/,
    );
  });

  it('promtool test rules: each alert fires on its series, after its wait, and not before', () => {
    expect(promtool('test', 'rules', 'prometheus-rules.test.yaml')).toMatch(/SUCCESS/);
  });

  it('reads only series the API or the workers export', async () => {
    const fleet = new FleetMetrics(
      { workerQueueNames: () => [] } as never,
      { reservedUnsettled: () => Promise.reject(new Error('not read')) } as never,
    );
    const api = fleet.registry.getMetricsAsArray().map((m) => m.name);
    const workerSource = await readFile(
      path.join(ROOT, 'apps/worker/src/worker-metrics.ts'),
      'utf8',
    );
    const worker = [...workerSource.matchAll(/name: '([a-z_]+)'/g)].map((m) => m[1]!);
    const exported = new Set([...api, ...worker]);
    const read = new Set(
      [...rules.matchAll(/\b(studioshot_[a-z_]+?)(?:_count|_sum|_bucket)?\b[{)\s]/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(read.size).toBeGreaterThanOrEqual(6);
    for (const name of read) expect(exported, name).toContain(name);
  });
});
