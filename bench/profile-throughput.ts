// Authenticated GET /api/v1/users/profile against a bare Express hello-world, same machine, same run.
// Targets: profile throughput >= 60% of hello-world; p99 <= 10 ms at half that load.
// The API runs as production starts it (its built entry point, NODE_ENV=production, production's
// log level): whatever middleware production composes, this bench measures.
// PROFILE_CPU_DIR=dir writes a V8 CPU profile of the API process (node --cpu-prof) there.
import autocannon from 'autocannon';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

const loadAverage = () => loadavg().map((l) => Number(l.toFixed(2)));
const load = loadAverage();
const ROUNDS = 3;
/** A child process's CPU time so far (user + system), in ms. */
function processCpuMs(child: ChildProcess): number {
  // Fields 14 and 15 of /proc/PID/stat, in clock ticks (100 per second on Linux).
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const DURATION_S = 10;
const CONNECTIONS = 50;
// Half load is measured open-loop by vegeta (bench/run.sh builds it: scripts/lib.sh), which sends
// one request every 1/rate s whatever the answers do, on as many connections as that takes.
// autocannon's own pacing (`overallRate`) is no half load: each connection fires its second's
// budget back to back at the top of every second, and its coordinated-omission correction takes
// 1 ms as the expected gap between requests, so every response slower than 2 ms adds made-up
// slower ones to the histogram. A load generator in JavaScript (loadtest, used before) is no good
// either at these rates on two shared cores: it measured its own event loop's delays, a bare
// node:http server at 6600 req/s showing a p99 of 15-59 ms through it and 2.7 ms through vegeta.
const VEGETA = requireEnv('VEGETA');
const execFileAsync = promisify(execFile);

interface PacedRun {
  p99Ms: number;
  rps: number;
  failed: number;
  /** vegeta's CPU (user + system) as a share of one core, in %. */
  generatorCpuPercent: number;
}

/** `rate` GET requests a second to `url` for DURATION_S, open loop; what the client saw. */
async function pacedRun(url: string, rate: number, headers: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'vegeta-'));
  try {
    const targets = [`GET ${url}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    writeFileSync(path.join(dir, 'targets.txt'), `${targets.join('\n')}\n`);
    const started = process.hrtime.bigint();
    // bash's \`times\` prints the CPU time of the children it waited for, vegeta's, on its
    // second line as user and system time ("0m1.234s 0m0.567s").
    const { stdout } = await execFileAsync(
      'bash',
      [
        '-c',
        `"$VEGETA" attack -targets=targets.txt -rate=${rate}/s -duration=${DURATION_S}s -keepalive=true -timeout=30s > results.bin && times`,
      ],
      { cwd: dir, env: { ...process.env, VEGETA } },
    );
    const wallS = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuS = stdout
      .trim()
      .split('\n')[1]!
      .split(' ')
      .map((time) => {
        const [, minutes, seconds] = /(\d+)m([\d.]+)s/.exec(time)!;
        return Number(minutes) * 60 + Number(seconds);
      })
      .reduce((a, b) => a + b, 0);
    const report = JSON.parse(
      (await execFileAsync(VEGETA, ['report', '-type=json', 'results.bin'], { cwd: dir })).stdout,
    ) as {
      latencies: { '99th': number };
      requests: number;
      throughput: number;
      status_codes: Record<string, number>;
    };
    const run: PacedRun = {
      p99Ms: Number((report.latencies['99th'] / 1e6).toFixed(1)),
      rps: Math.round(report.throughput),
      failed: report.requests - (report.status_codes['200'] ?? 0),
      generatorCpuPercent: Math.round((cpuS / wallS) * 100),
    };
    if (run.failed > 0) throw new Error(`${url} at ${rate} req/s: ${run.failed} failed requests`);
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const [apiPort, metricsPort, helloPort] = [await freePort(), await freePort(), await freePort()];
const cpuProfileDir = process.env.PROFILE_CPU_DIR;
const api = startNode(
  'apps/api/dist/main.js',
  {
    NODE_ENV: 'production',
    PORT: String(apiPort),
    // Production's private metrics listener, on a free port rather than its fixed default (9464)
    // so runs beside other processes on the machine do not collide; the request metrics
    // middleware (HTTP_METRICS, on by default) times every request as production does.
    METRICS_PORT: String(metricsPort),
    DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
    REDIS_URL: requireEnv('REDIS_URL'),
    REDIS_PREFIX: `bench:${database}:`,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
    LOG_LEVEL: 'info',
    // Production refuses development conveniences: real transports, never called by this bench.
    MAIL_TRANSPORT: 'smtp',
    SMTP_URL: 'smtp://127.0.0.1:9',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: 'whsec_bench',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
  },
  cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
);
const hello = startNode('bench/hello-express.mjs', { PORT: String(helloPort) });

try {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  await Promise.all([waitForHttp(`${apiUrl}/health`, api), waitForHttp(helloUrl, hello)]);
  const registered = await fetch(`${apiUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'bench-password',
      name: 'Bench User',
    }),
  });
  const { access_token: token } = (await registered.json()) as { access_token: string };
  const profile = {
    url: `${apiUrl}/api/v1/users/profile`,
    headers: { Authorization: `Bearer ${token}` },
  };

  // The load generator shares the machine's cores with the servers: its own CPU use (this
  // process, user + system, as a share of one core) is reported with every run.
  const generatorCpu: number[] = [];
  // The servers' own CPU time per answered request (user + system, from /proc): unlike req/s it
  // hardly depends on what else the machine runs.
  const serverCpuUs = new Map<ChildProcess, number[]>([
    [hello, []],
    [api, []],
  ]);
  const run = async (opts: autocannon.Options, server?: ChildProcess) => {
    const serverBefore = server ? processCpuMs(server) : 0;
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
    const cpu = process.cpuUsage(cpuBefore);
    const wallUs = Number(process.hrtime.bigint() - started) / 1000;
    generatorCpu.push(Math.round(((cpu.user + cpu.system) / wallUs) * 100));
    if (server) {
      const served = result.requests.total;
      serverCpuUs
        .get(server)!
        .push(Math.round(((processCpuMs(server) - serverBefore) * 1000) / served));
    }
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${opts.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    return result;
  };

  // Warm both servers (JIT, connection pools) before measuring.
  await run({ url: helloUrl, duration: 3 });
  await run({ ...profile, duration: 3 });
  generatorCpu.length = 0;

  const helloRps: number[] = [];
  const profileRps: number[] = [];
  const profileP99: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    helloRps.push((await run({ url: helloUrl }, hello)).requests.average);
    const r = await run(profile, api);
    profileRps.push(r.requests.average);
    profileP99.push(r.latency.p99);
  }
  // The API's own request histogram (production's metric): how long the profile reads took from
  // the request's arrival in Express to the answer, as cumulative counts per bucket bound (ms).
  // The client's figure adds what the machine's two cores add on top: the load generator, Postgres
  // and the API taking turns on them.
  const profileBuckets = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const buckets = new Map<number, number>();
    for (const [, labels, count] of text.matchAll(
      /^http_request_duration_seconds_bucket\{([^}]*)\} (\d+)$/gm,
    )) {
      if (!labels!.includes('route="/api/v1/users/profile"')) continue;
      const le = /le="([^"]+)"/.exec(labels!)![1];
      const bound = le === '+Inf' ? Infinity : Number(le) * 1000;
      buckets.set(bound, (buckets.get(bound) ?? 0) + Number(count));
    }
    return buckets;
  };
  /** The smallest bucket bound that holds 99% of the reads made between the two readings. */
  const p99Bound = (before: Map<number, number>, after: Map<number, number>) => {
    const bounds = [...after.keys()].sort((a, b) => a - b);
    const total = after.get(Infinity)! - (before.get(Infinity) ?? 0);
    return bounds.find((b) => after.get(b)! - (before.get(b) ?? 0) >= total * 0.99)!;
  };

  const helloMedian = median(helloRps);
  const profileMedian = median(profileRps);
  const halfLoad = Math.round(profileMedian / 2);
  // The baseline at half of its own throughput: the tail the machine and Express give a read
  // that does nothing, at the same share of what each server can do.
  const helloHalfLoad = Math.round(helloMedian / 2);
  const pacedP99: number[] = [];
  const pacedRps: number[] = [];
  const serverP99Bound: number[] = [];
  const helloPacedP99: number[] = [];
  // The profile at the baseline's pace too: both servers' tails at the same rate.
  const profileAtHelloPaceP99: number[] = [];
  const vegetaCpu: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const baseline = await pacedRun(helloUrl, helloHalfLoad);
    helloPacedP99.push(baseline.p99Ms);
    vegetaCpu.push(baseline.generatorCpuPercent);
    const samePace = await pacedRun(profile.url, helloHalfLoad, profile.headers);
    profileAtHelloPaceP99.push(samePace.p99Ms);
    vegetaCpu.push(samePace.generatorCpuPercent);
    const bucketsBefore = await profileBuckets();
    const paced = await pacedRun(profile.url, halfLoad, profile.headers);
    vegetaCpu.push(paced.generatorCpuPercent);
    pacedP99.push(paced.p99Ms);
    pacedRps.push(paced.rps);
    serverP99Bound.push(p99Bound(bucketsBefore, await profileBuckets()));
  }
  // The request metrics ran on every profile read measured: production's middleware, not a
  // bench without it.
  const exposition = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const timedReads = new RegExp(
    String.raw`^http_request_duration_seconds_count\{[^}]*route="/api/v1/users/profile"[^}]*\} (\d+)$`,
    'm',
  ).exec(exposition);
  if (!timedReads || Number(timedReads[1]) === 0) {
    throw new Error('the request metrics did not time the profile reads');
  }
  const ratio = profileMedian / helloMedian;
  // The ratio of each round (hello-world and profile measured back to back), for its spread.
  const roundRatios = profileRps.map((rps, i) => rps / helloRps[i]!);
  const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
  const result = {
    machine: machine(),
    settings: {
      rounds: ROUNDS,
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      api_log_level: 'info',
      request_metrics_timed_profile_reads: Number(timedReads[1]),
      load_average_at_start: load,
    },
    hello_world_rps: { median: Math.round(helloMedian), runs: helloRps.map(Math.round) },
    profile_rps: { median: Math.round(profileMedian), runs: profileRps.map(Math.round) },
    profile_p99_ms_at_full_load: { median: median(profileP99), runs: profileP99 },
    ratio_profile_to_hello: Number(ratio.toFixed(3)),
    server_cpu_us_per_request: {
      hello_world: { median: median(serverCpuUs.get(hello)!), runs: serverCpuUs.get(hello)! },
      profile: { median: median(serverCpuUs.get(api)!), runs: serverCpuUs.get(api)! },
    },
    ratio_per_round: roundRatios.map((r) => Number(r.toFixed(3))),
    half_load_rps: halfLoad,
    half_load_rps_served: pacedRps,
    profile_p99_ms_at_half_load: { median: median(pacedP99), runs: pacedP99 },
    hello_world_half_load_rps: helloHalfLoad,
    hello_world_p99_ms_at_its_half_load: { median: median(helloPacedP99), runs: helloPacedP99 },
    profile_p99_ms_at_hello_world_half_load: {
      median: median(profileAtHelloPaceP99),
      runs: profileAtHelloPaceP99,
    },
    profile_server_p99_bucket_ms_at_half_load: {
      median: median(serverP99Bound),
      runs: serverP99Bound,
    },
    load_generator_cpu_percent_of_a_core: {
      autocannon: { median: median(generatorCpu), runs: generatorCpu },
      vegeta_at_half_load: { median: median(vegetaCpu), runs: vegetaCpu },
    },
    targets: { ratio_min: 0.6, p99_half_load_max_ms: 10 },
    pass: ratio >= 0.6 && median(pacedP99) <= 10,
  };
  const md = `# Authenticated profile throughput

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
Load average (1, 5, 15 min) at the start: ${load.join(', ')} (the machine is shared; the ratio is
measured within one run, hello-world and profile back to back in each round).
Throughput: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} runs each. Half load: vegeta
sending one request every 1/${halfLoad} s (open loop, keep-alive), ${DURATION_S} s per run.
Medians quoted with their spread (max - min). The API runs its production build with NODE_ENV=production and
production's log level (info: one log line per request), security headers, production's rate limits,
the request metrics (they timed ${result.settings.request_metrics_timed_profile_reads} profile reads
in this run) and everything else production composes.

| measure | median | spread | runs |
| --- | --- | --- | --- |
| bare Express hello-world, req/s | ${result.hello_world_rps.median} | ${Math.round(spread(helloRps))} | ${result.hello_world_rps.runs.join(', ')} |
| GET /api/v1/users/profile (JWT, revocation check, profile), req/s | ${result.profile_rps.median} | ${Math.round(spread(profileRps))} | ${result.profile_rps.runs.join(', ')} |
| ratio profile / hello-world | **${(ratio * 100).toFixed(1)}%** (target >= 60%) | ${(spread(roundRatios) * 100).toFixed(1)} points | ${roundRatios.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')} |
| profile p99 at ${halfLoad} req/s (half load, evenly paced; served ${pacedRps.join(', ')} req/s), ms | **${result.profile_p99_ms_at_half_load.median}** (target <= 10) | ${spread(pacedP99).toFixed(1)} | ${pacedP99.join(', ')} |
| bare Express hello-world p99 at its own half load (${helloHalfLoad} req/s), just before each profile round, ms | ${result.hello_world_p99_ms_at_its_half_load.median} | ${spread(helloPacedP99).toFixed(1)} | ${helloPacedP99.join(', ')} |
| profile p99 at that same ${helloHalfLoad} req/s, right after, ms | ${result.profile_p99_ms_at_hello_world_half_load.median} | ${spread(profileAtHelloPaceP99).toFixed(1)} | ${profileAtHelloPaceP99.join(', ')} |
| the API's own request histogram at half load: the bucket holding 99% of the reads, ms | <= ${result.profile_server_p99_bucket_ms_at_half_load.median} | | ${serverP99Bound.map((b) => `<= ${b}`).join(', ')} |
| profile p99 at full load, ms | ${result.profile_p99_ms_at_full_load.median} | ${spread(profileP99)} | ${profileP99.join(', ')} |
| server CPU per request, hello-world, µs | ${result.server_cpu_us_per_request.hello_world.median} | ${spread(serverCpuUs.get(hello)!)} | ${serverCpuUs.get(hello)!.join(', ')} |
| server CPU per request, profile, µs | ${result.server_cpu_us_per_request.profile.median} | ${spread(serverCpuUs.get(api)!)} | ${serverCpuUs.get(api)!.join(', ')} |
| load generator CPU, autocannon (this process, throughput rounds), % of one core | ${median(generatorCpu)} | ${spread(generatorCpu)} | ${generatorCpu.join(', ')} |
| load generator CPU, vegeta (half-load rounds: hello-world, profile at its pace, profile at half load, in turn), % of one core | ${median(vegetaCpu)} | ${spread(vegetaCpu)} | ${vegetaCpu.join(', ')} |

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh profile-throughput\`.
`;
  writeResult('profile-throughput', result, md);
  console.log(md);
} finally {
  await Promise.all([stop(api), stop(hello)]);
  await dropDatabase(adminUrl, database);
}
