// The landing page in headless Chromium against the built product on localhost.
// Targets: JS loaded by first paint < 150 KB gzipped; LCP < 1.5 s, and the
// landing's initial JS does not grow (the wait-time estimate loads after the first paint).
//   LANDING_WEB_DIST=DIR   measure that build of the web app (default apps/web/dist), named
//                          LANDING_LABEL in the result
//   LANDING_BASELINES='label=DIR;label=DIR'   also weigh other builds' initial JS, to compare
//                          (the result passes only if this build's is no larger than each)
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import {
  freePort,
  machine,
  median,
  requireEnv,
  ROOT,
  startNode,
  stop,
  waitForHttp,
  writeResult,
} from './common.js';

const RUNS = 7;
const webDist = process.env.LANDING_WEB_DIST ?? path.join(ROOT, 'apps/web/dist');
const buildLabel = process.env.LANDING_LABEL ?? 'apps/web/dist';
const baselineDirs = (process.env.LANDING_BASELINES ?? '')
  .split(';')
  .filter(Boolean)
  .map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`LANDING_BASELINES: "${pair}" is not label=DIR`);
    return { label: pair.slice(0, at), dir: pair.slice(at + 1) };
  });

/**
 * The landing page's initial JS, read from a build, whatever the timing: the entry script, the
 * landing route's module (which the router loads before it renders the page) and every module
 * they import statically, each gzipped as the server sends it. What they import dynamically
 * (other routes, code a page loads after its first paint) is not in it.
 */
function initialJs(dist: string) {
  const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
  const entry = /<script[^>]+src="\/(assets\/[^"]+\.js)"/.exec(read('index.html'))?.[1];
  if (!entry) throw new Error(`${dist}/index.html names no entry script`);
  const landing = /import\("\.\/(home-[^"]+\.js)"\)/.exec(read(entry))?.[1];
  if (!landing) throw new Error(`${entry} does not load the landing route (home-*.js)`);
  const staticImports = (file: string) =>
    [
      ...read(file).matchAll(
        /(?:^|[;}\n])\s*import\s*(?:[^"'();]*?from\s*)?["']\.\/([^"']+\.js)["']/g,
      ),
    ].map((m) => `assets/${m[1]}`);
  const files = new Map<string, number>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
    staticImports(file).forEach(visit);
  };
  visit(entry);
  visit(`assets/${landing}`);
  const gzip = [...files.values()].reduce((sum, n) => sum + n, 0);
  return {
    gzip_kb: Number((gzip / 1024).toFixed(2)),
    gzip_bytes: gzip,
    files: Object.fromEntries([...files].map(([file, bytes]) => [path.basename(file), bytes])),
  };
}

const initial = initialJs(webDist);
const baselines = baselineDirs.map(({ label, dir }) => ({ label, initial_js: initialJs(dir) }));

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const port = await freePort();
const api = startNode('apps/api/dist/main.js', {
  NODE_ENV: 'production',
  PORT: String(port),
  DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  WEB_DIST: webDist,
  LOG_LEVEL: 'warn',
  // Production refuses development conveniences: real transports, never called by this bench.
  MAIL_TRANSPORT: 'smtp',
  SMTP_URL: 'smtp://127.0.0.1:9',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_bench',
  STRIPE_WEBHOOK_SECRET: 'whsec_bench',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

interface Sample {
  lcp_ms: number;
  fcp_ms: number;
  js_gzip_bytes_before_fcp: number;
  js_files_before_fcp: number;
  /** Scripts asked for after the first paint (the estimate's code): not in the initial JS. */
  js_requested_after_fcp: string[];
}

try {
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(`${url}health`, api);
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    // A fresh context each run: a cold cache, as a first-time visitor has.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number };
      w.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const sample = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const scripts = (
        performance.getEntriesByType('resource') as PerformanceResourceTiming[]
      ).filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
      const early = scripts.filter((r) => r.responseEnd <= fcp);
      return {
        lcp_ms: (window as unknown as { __lcp: number }).__lcp,
        fcp_ms: fcp,
        js_gzip_bytes_before_fcp: early.reduce((sum, r) => sum + r.encodedBodySize, 0),
        js_files_before_fcp: early.length,
        js_requested_after_fcp: scripts
          .filter((r) => r.startTime > fcp)
          .map((r) => new URL(r.name).pathname.split('/').pop() ?? r.name),
      };
    });
    samples.push(sample);
    await context.close();
  }
  const lcp = median(samples.map((s) => s.lcp_ms));
  const js = median(samples.map((s) => s.js_gzip_bytes_before_fcp));
  const result = {
    machine: machine(),
    runs: RUNS,
    lcp_ms: { median: Math.round(lcp), runs: samples.map((s) => Math.round(s.lcp_ms)) },
    fcp_ms: { median: Math.round(median(samples.map((s) => s.fcp_ms))) },
    js_gzip_kb_before_fcp: {
      median: Number((js / 1024).toFixed(1)),
      files: samples[0]?.js_files_before_fcp,
    },
    js_requested_after_fcp: samples[0]?.js_requested_after_fcp ?? [],
    build: buildLabel,
    initial_js: initial,
    baselines: baselines.map((b) => ({
      ...b,
      difference_bytes: initial.gzip_bytes - b.initial_js.gzip_bytes,
    })),
    targets: {
      lcp_ms_max: 1500,
      js_gzip_kb_max: 150,
      initial_js_no_larger_than_baselines: baselines.map((b) => b.label),
    },
    pass:
      lcp < 1500 &&
      js / 1024 < 150 &&
      baselines.every((b) => initial.gzip_bytes <= b.initial_js.gzip_bytes),
  };
  const fileList = (files: Record<string, number>) =>
    Object.entries(files)
      .map(([file, bytes]) => `${file} ${(bytes / 1024).toFixed(2)} KB`)
      .join(', ');
  const md = `# Landing page

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; ${result.machine.date}.
Headless Debian Chromium, 1280x800, cold cache per run, the built product served by the API
(gzip) on localhost; ${RUNS} runs, medians quoted. Build measured: ${buildLabel}.

| measure | median | target |
| --- | --- | --- |
| Largest Contentful Paint | **${result.lcp_ms.median} ms** (runs: ${result.lcp_ms.runs.join(', ')}) | < 1500 ms |
| First Contentful Paint | ${result.fcp_ms.median} ms | |
| JS transferred before first paint (gzip) | **${result.js_gzip_kb_before_fcp.median} KB** in ${result.js_gzip_kb_before_fcp.files} files | < 150 KB |
| Initial JS of the build: entry + landing route + their static imports (gzip) | **${initial.gzip_kb} KB** (${initial.gzip_bytes} bytes) | ${baselines.length ? 'no larger than each build below' : ''} |
${baselines.map((b) => `| the same, ${b.label} | ${b.initial_js.gzip_kb} KB (${b.initial_js.gzip_bytes} bytes): this build ${initial.gzip_bytes - b.initial_js.gzip_bytes <= 0 ? '' : '+'}${initial.gzip_bytes - b.initial_js.gzip_bytes} bytes | |\n`).join('')}
Initial JS files: ${fileList(initial.files)}.
${baselines.map((b) => `Initial JS files, ${b.label}: ${fileList(b.initial_js.files)}.\n`).join('')}Scripts asked for after the first paint: ${result.js_requested_after_fcp.join(', ') || 'none'}.

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh landing\`.
`;
  writeResult('landing', result, md);
  console.log(md);
} finally {
  await browser.close();
  await stop(api);
  await dropDatabase(adminUrl, database);
}
