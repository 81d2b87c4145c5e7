import { JOB_NAMES, QUEUES } from '@studioshot/contracts';
import { Queue, QueueEvents } from 'bullmq';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pageShot,
  register,
  startProduct,
  trainedUserWithCredits,
  type Product,
} from '../fixtures.js';
import { signedInPage, type Session } from '../harness.js';

/**
 * The ops console in the browser: an operator made an admin by the command-line tool reads the
 * fleet page (the real worker by engine kind holding a real generation, the GPU time a real
 * training used today, the cost projection and the wait), opens the queue console (bull-board)
 * with the session cookie the page mints, finds a job the worker failed with its error and
 * retries it; to a plain user both pages are the page that is not there.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

let product: Product;
let admin: Session;
let plain: Session;
let customer: Session;
let photoChecks: Queue;
let photoCheckEvents: QueueEvents;

const url = (p: string) => product.url(p);

interface FleetAnswer {
  workers: {
    name: string;
    engine_kind: string | null;
    current_jobs: { queue: string; job_id: string; job_name: string }[];
  }[];
  gpu_seconds_today: number;
}

beforeAll(async () => {
  product = await startProduct();
  admin = await register(product.api, 'Olu Operator');
  plain = await register(product.api, 'Pat Plain');
  // GPU time today comes from a training the worker really ran.
  customer = await trainedUserWithCredits(product, {
    name: 'Grace',
    gender: 'female',
    age: 41,
    modelName: 'Grace, for the fleet',
    cardName: 'Grace Customer',
  });
  const connection = { url: process.env.REDIS_URL! };
  photoChecks = new Queue(QUEUES.photoChecks, { connection, prefix: product.app.bullPrefix });
  photoCheckEvents = new QueueEvents(QUEUES.photoChecks, {
    connection,
    prefix: product.app.bullPrefix,
  });
  await photoCheckEvents.waitUntilReady();
});
afterAll(async () => {
  await photoCheckEvents?.close();
  await photoChecks?.close();
  await product?.stop();
});

/** The command-line tool an operator runs, as built, against the product's database. */
function adminCli(...args: string[]) {
  return run(process.execPath, [path.join(ROOT, 'apps/api/dist/admin.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: product.app.databaseUrl },
  });
}

function readFleet(): Promise<FleetAnswer> {
  return product.api<FleetAnswer>(admin, '/api/v1/admin/fleet', undefined, 'GET').then((res) => {
    expect(res.status).toBe(200);
    return res.body;
  });
}

/** The worker's process and every process under it: its engine processes. */
async function workerEngines(): Promise<number[]> {
  const { stdout } = await run('ps', ['-e', '-o', 'pid=,ppid=']);
  const parents = stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  let frontier = [product.app.workerPid];
  while (frontier.length) {
    frontier = parents.filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    found.push(...frontier);
  }
  return found;
}

const signal = async (pids: number[], name: NodeJS.Signals) => {
  for (const pid of pids) process.kill(pid, name);
};

/**
 * A generation held by the worker while the page is read: started through the API, and its
 * engine paused (SIGSTOP) once the worker holds it, until `resume`. A generation that finished
 * before the pause is followed by another.
 */
async function heldGeneration(): Promise<{ jobId: string; resume: () => Promise<void> }> {
  const models = await product.api<{ models: { id: string }[] }>(
    customer,
    '/api/v1/upload/user-models',
    undefined,
    'GET',
  );
  const modelId = models.body.models[0]!.id;
  for (let attempt = 0; attempt < 5; attempt++) {
    const generating = product.api(customer, '/api/v1/generation/generate-trained', {
      model_id: modelId,
      prompt: 'professional headshot, grey backdrop',
      num_images: 1,
      idempotency_key: randomUUID(),
    });
    const held = () =>
      readFleet().then((fleet) =>
        fleet.workers
          .flatMap((worker) => worker.current_jobs)
          .find((job) => job.queue.startsWith('generation.')),
      );
    // Until the worker holds it, or the call answers (the generation finished first).
    let answered = false;
    void generating.then(() => (answered = true));
    const job = await product.until(
      async () => (await held()) ?? (answered ? null : undefined),
      'the worker to take the generation',
    );
    if (job) {
      const engines = await workerEngines();
      await signal(engines, 'SIGSTOP');
      // Still held once its engine is paused: the page will find it there.
      if ((await held())?.job_id === job.job_id) {
        return {
          jobId: job.job_id,
          resume: async () => {
            await signal(engines, 'SIGCONT');
            const answer = await generating;
            expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
          },
        };
      }
      await signal(engines, 'SIGCONT');
    }
    await generating;
  }
  throw new Error('every generation finished before the worker could be seen holding it');
}

async function notFoundPage(page: Page) {
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  expect(await page.getByRole('heading', { name: 'Fleet', exact: true }).count()).toBe(0);
}

describe('the ops console', () => {
  it('an admin granted by the command-line tool reads the fleet, opens the queue console and retries a failed job', async () => {
    const { stdout } = await adminCli('grant', admin.user.email);
    expect(stdout).toContain(`${admin.user.email} is now an admin`);
    expect((await adminCli('list')).stdout.split('\n')).toContain(admin.user.email);

    const gpuSeconds = (await readFleet()).gpu_seconds_today;
    expect(gpuSeconds).toBeGreaterThan(0);

    // A photo check the worker could not run: its error is what the console must show.
    const broken = await photoChecks.add(JOB_NAMES.checkPhoto, { photo: 'not-an-id' });
    const failedReason = await product.until(async () => {
      const job = await photoChecks.getJob(broken.id!);
      return (await job?.isFailed()) ? job!.failedReason : undefined;
    }, 'the worker to fail the broken photo check');
    expect(failedReason).toMatch(/^invalid photo\.check payload/);

    const { context, page } = await signedInPage(product.browser, admin);
    const generation = await heldGeneration();
    try {
      await page.goto(url('/admin/fleet'));
      await page.getByRole('heading', { name: 'Fleet', exact: true }).waitFor();
      const workers = page.getByRole('region', { name: 'Workers by engine kind' });
      // An engine kind's heading and its list of workers share a parent.
      const studio = workers.getByRole('heading', { name: /^Studio \(CPU\) · \d+$/ }).locator('..');
      // The worker holding the generation, under its engine kind.
      await studio.getByText(generation.jobId, { exact: true }).waitFor();
      await studio.getByText(JOB_NAMES.generate, { exact: true }).waitFor();
      const figure = (label: string) =>
        page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
      const gpuTime = await figure('GPU time today').locator('dd').first().innerText();
      expect(gpuTime).toMatch(/^\d+ (s|min)$|^\d+ h/);
      expect(gpuTime).not.toBe('0 s');
      expect(await figure('Projected monthly cost').locator('dd').first().innerText()).toMatch(
        /^\$[\d,]+\.\d\d$/,
      );
      expect(
        await figure('Wait for a training (studio)').locator('dd').first().innerText(),
      ).not.toBe('No worker connected');
      await pageShot(page, '90-admin-fleet');
      // The queue table counts the held generation as running.
      const generationRow = page.getByRole('row', { name: /^generation\.studio / });
      expect(await generationRow.getByRole('cell').nth(1).innerText()).toBe('1');
    } finally {
      await generation.resume();
    }

    // The console: the page mints its cookie and goes there; the failed check with its error.
    await page.getByRole('button', { name: 'Open queue console' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/admin/queues'));
    const cookies = await context.cookies(url('/admin/queues/'));
    expect(cookies.map((c) => c.name)).toContain('studioshot_admin');
    await page.goto(url(`/admin/queues/queue/${QUEUES.photoChecks}?status=failed`));
    await page.getByText(failedReason, { exact: false }).first().waitFor();
    await pageShot(page, '91-admin-queues-failed');

    // Retry: the worker takes the job again (and fails it again: its payload is still broken).
    const ranAgain = new Promise<void>((resolve) => {
      photoCheckEvents.on('active', ({ jobId }) => {
        if (jobId === broken.id) resolve();
      });
    });
    // The job's first action is Retry (its tooltip says so); bull-board asks to confirm it.
    const retry = page.locator('[class*="jobActions"] button').first();
    await retry.hover();
    await page.getByText('Retry', { exact: true }).waitFor();
    await retry.click();
    await page.getByText('Are you sure that you want to retry this job?').waitFor();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await ranAgain;
    await product.until(async () => {
      const job = await photoChecks.getJob(broken.id!);
      return job && (await job.isFailed()) && job.attemptsMade >= 2 ? true : undefined;
    }, 'the retried job to run again');
    await pageShot(page, '92-admin-queues-retried');
    await context.close();
  });

  it('is the page that is not there for a plain user: the fleet, its calls and the queue console', async () => {
    const { context, page } = await signedInPage(product.browser, plain);
    try {
      await page.goto(url('/admin/fleet'));
      await notFoundPage(page);
      await pageShot(page, '93-admin-fleet-plain-user');
      expect((await product.api(plain, '/api/v1/admin/fleet', undefined, 'GET')).status).toBe(404);
      expect((await product.api(plain, '/api/v1/admin/session', {})).status).toBe(404);
      const console = await page.goto(url('/admin/queues/'));
      expect(console?.status()).toBe(404);
      expect(await context.cookies(url('/admin/queues/'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
