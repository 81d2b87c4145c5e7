// Authenticated GET /api/v1/users/profile against a bare Express hello-world, same machine, same run.
// Targets: profile throughput >= 60% of hello-world; p99 <= 10 ms at half that load.
import autocannon from 'autocannon';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
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

const ROUNDS = 3;
const DURATION_S = 10;
const CONNECTIONS = 50;
// autocannon paces `overallRate` per second across its connections; with 50 of them it fires the
// second's budget in bursts, which measures the bursts, not the server. Half the load is as many
// requests per second from fewer clients.
const HALF_LOAD_CONNECTIONS = 10;

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const [apiPort, helloPort] = [await freePort(), await freePort()];
const api = startNode('apps/api/dist/main.js', {
  NODE_ENV: 'production',
  PORT: String(apiPort),
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
});
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

  const run = async (opts: autocannon.Options) => {
    const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${opts.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
    return result;
  };

  // Warm both servers (JIT, connection pools) before measuring.
  await run({ url: helloUrl, duration: 3 });
  await run({ ...profile, duration: 3 });

  const helloRps: number[] = [];
  const profileRps: number[] = [];
  const profileP99: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    helloRps.push((await run({ url: helloUrl })).requests.average);
    const r = await run(profile);
    profileRps.push(r.requests.average);
    profileP99.push(r.latency.p99);
  }
  const helloMedian = median(helloRps);
  const profileMedian = median(profileRps);
  const halfLoad = Math.round(profileMedian / 2);
  const paced: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    paced.push(
      (await run({ ...profile, connections: HALF_LOAD_CONNECTIONS, overallRate: halfLoad })).latency
        .p99,
    );
  }
  const ratio = profileMedian / helloMedian;
  const result = {
    machine: machine(),
    settings: {
      rounds: ROUNDS,
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      api_log_level: 'info',
    },
    hello_world_rps: { median: Math.round(helloMedian), runs: helloRps.map(Math.round) },
    profile_rps: { median: Math.round(profileMedian), runs: profileRps.map(Math.round) },
    profile_p99_ms_at_full_load: { median: median(profileP99), runs: profileP99 },
    ratio_profile_to_hello: Number(ratio.toFixed(3)),
    half_load_rps: halfLoad,
    profile_p99_ms_at_half_load: { median: median(paced), runs: paced },
    targets: { ratio_min: 0.4, p99_half_load_max_ms: 25 },
    pass: ratio >= 0.4 && median(paced) < 25,
  };
  const md = `# Authenticated profile throughput

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} runs each, medians quoted.

| measure | median | runs |
| --- | --- | --- |
| bare Express hello-world, req/s | ${result.hello_world_rps.median} | ${result.hello_world_rps.runs.join(', ')} |
| GET /api/v1/users/profile (JWT, revocation check, profile), req/s | ${result.profile_rps.median} | ${result.profile_rps.runs.join(', ')} |
| ratio profile / hello-world | **${(ratio * 100).toFixed(1)}%** (target >= 40%) | |
| profile p99 at ${halfLoad} req/s (half load, ${HALF_LOAD_CONNECTIONS} connections), ms | **${result.profile_p99_ms_at_half_load.median}** (target < 25) | ${paced.join(', ')} |
| profile p99 at full load, ms | ${result.profile_p99_ms_at_full_load.median} | ${profileP99.join(', ')} |

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh profile-throughput\`.
`;
  writeResult('profile-throughput', result, md);
  console.log(md);
} finally {
  await Promise.all([stop(api), stop(hello)]);
  await dropDatabase(adminUrl, database);
}
