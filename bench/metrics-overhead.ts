// What the request metrics cost: the authenticated GET /api/v1/users/profile, on two API
// processes alike but for HTTP_METRICS (request timing on, as production runs, and off), measured
// in interleaved runs. Target: the metrics cost under 2% of the profile read's throughput. When
// the runs spread more than that, the middleware's own cost per request is measured in-process too.
import { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import type { Request, RequestHandler, Response } from 'express';
import { Histogram, Registry } from 'prom-client';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { requestMetrics } from '../apps/api/src/middleware/request-metrics.js';
import {
  freePort,
  machine,
  median,
  requireEnv,
  startNode,
  stop,
  waitForHttp,
  writeResult,
} from './common.js';

const ROUNDS = 5;
const DURATION_S = 10;
const CONNECTIONS = 50;
const TARGET_COST = 0.02;
const MICRO_REQUESTS = 200_000;

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const [onPort, offPort] = [await freePort(), await freePort()];
// Development mode: production refuses HTTP_METRICS=false, which exists for this bench only.
// Both processes run alike otherwise, on one database and one Redis.
const apiEnv = (port: number, httpMetrics: boolean) => ({
  NODE_ENV: 'development',
  PORT: String(port),
  METRICS_PORT: '0',
  HTTP_METRICS: String(httpMetrics),
  DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  LOG_LEVEL: 'info',
});
const withMetrics = startNode('apps/api/dist/main.js', apiEnv(onPort, true));
const withoutMetrics = startNode('apps/api/dist/main.js', apiEnv(offPort, false));

/** Nanoseconds per request of `middleware` on a request that finishes at once. */
function perRequestNs(middleware: RequestHandler): number {
  const req = { method: 'GET', baseUrl: '', route: { path: '/api/v1/users/profile' } };
  const next = () => undefined;
  const started = process.hrtime.bigint();
  for (let i = 0; i < MICRO_REQUESTS; i += 1) {
    const res = Object.assign(new EventEmitter(), { statusCode: 200 });
    middleware(req as unknown as Request, res as unknown as Response, next);
    res.emit('finish');
  }
  return Number(process.hrtime.bigint() - started) / MICRO_REQUESTS;
}

function microbench() {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'bench',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [new Registry()],
  });
  const timed = requestMetrics(histogram);
  // The same request's bare cost (a response object and its finish event) without the timing.
  const bare: RequestHandler = (_req, _res, next) => next();
  const timedNs: number[] = [];
  const bareNs: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    timedNs.push(perRequestNs(timed));
    bareNs.push(perRequestNs(bare));
  }
  return { timed_ns: median(timedNs), bare_ns: median(bareNs) };
}

const spread = (values: number[]) => (Math.max(...values) - Math.min(...values)) / median(values);

try {
  const onUrl = `http://127.0.0.1:${onPort}`;
  const offUrl = `http://127.0.0.1:${offPort}`;
  await Promise.all([
    waitForHttp(`${onUrl}/health`, withMetrics),
    waitForHttp(`${offUrl}/health`, withoutMetrics),
  ]);
  const registered = await fetch(`${onUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password', name: 'Bench' }),
  });
  const { access_token: token } = (await registered.json()) as { access_token: string };
  const profile = (base: string) => ({
    url: `${base}/api/v1/users/profile`,
    headers: { Authorization: `Bearer ${token}` },
  });
  const run = async (base: string, duration = DURATION_S) => {
    const result = await autocannon({ connections: CONNECTIONS, duration, ...profile(base) });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${base}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    return result.requests.average;
  };

  await run(onUrl, 3);
  await run(offUrl, 3);
  const on: number[] = [];
  const off: number[] = [];
  // Interleaved, the order swapped every round, so a drift in the machine's load hits both.
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      on.push(await run(onUrl));
      off.push(await run(offUrl));
    } else {
      off.push(await run(offUrl));
      on.push(await run(onUrl));
    }
  }
  const onMedian = median(on);
  const offMedian = median(off);
  const cost = 1 - onMedian / offMedian;
  const spreads = { with_metrics: spread(on), without_metrics: spread(off) };
  const micro =
    Math.max(spreads.with_metrics, spreads.without_metrics) > TARGET_COST
      ? microbench()
      : undefined;
  // The middleware's share of one profile read, from the in-process cost and the measured rate
  // (one request's time on the one core a Node process uses).
  const microShare = micro ? (micro.timed_ns - micro.bare_ns) / (1e9 / offMedian) : undefined;
  const result = {
    machine: machine(),
    settings: {
      rounds: ROUNDS,
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      node_env: 'development',
    },
    profile_rps_with_metrics: { median: Math.round(onMedian), runs: on.map(Math.round) },
    profile_rps_without_metrics: { median: Math.round(offMedian), runs: off.map(Math.round) },
    throughput_cost: Number(cost.toFixed(4)),
    spread: {
      with_metrics: Number(spreads.with_metrics.toFixed(4)),
      without_metrics: Number(spreads.without_metrics.toFixed(4)),
    },
    microbench: micro && {
      requests: MICRO_REQUESTS,
      middleware_ns_per_request: Math.round(micro.timed_ns),
      bare_ns_per_request: Math.round(micro.bare_ns),
      share_of_a_profile_read: Number(microShare!.toFixed(4)),
    },
    target: { cost_max: TARGET_COST },
    pass: micro ? microShare! < TARGET_COST : cost < TARGET_COST,
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const md = `# Request metrics overhead

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
Authenticated GET /api/v1/users/profile on two API processes (built, NODE_ENV=development since production refuses HTTP_METRICS=false), one with the request metrics on (as production runs) and one with HTTP_METRICS=false; autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} runs each, interleaved with the order swapped each round.

| measure | median | spread (max-min)/median | runs |
| --- | --- | --- | --- |
| with metrics, req/s | ${result.profile_rps_with_metrics.median} | ${pct(spreads.with_metrics)} | ${result.profile_rps_with_metrics.runs.join(', ')} |
| without metrics, req/s | ${result.profile_rps_without_metrics.median} | ${pct(spreads.without_metrics)} | ${result.profile_rps_without_metrics.runs.join(', ')} |
| throughput cost (1 - with/without) | **${pct(cost)}** (target < ${pct(TARGET_COST)}) | | |
${
  micro
    ? `
The runs spread more than ${pct(TARGET_COST)}, so the difference of medians is within the noise. The middleware measured in-process (${MICRO_REQUESTS} requests, median of 5 rounds): **${Math.round(micro.timed_ns - micro.bare_ns)} ns per request** (${Math.round(micro.timed_ns)} ns with the timing, ${Math.round(micro.bare_ns)} ns without), which is **${pct(microShare!)}** of one profile read at the measured ${Math.round(offMedian)} req/s.
`
    : ''
}
Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh metrics-overhead\`.
`;
  writeResult('metrics-overhead', result, md);
  console.log(md);
} finally {
  await Promise.all([stop(withMetrics), stop(withoutMetrics)]);
  await dropDatabase(adminUrl, database);
}
