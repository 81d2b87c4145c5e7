import AxeBuilder from '@axe-core/playwright';
import { applyLedgerEntry, createDb, type Db } from '@studioshot/db';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, uniqueEmail, type ApiCaller } from '../fixtures.js';
import {
  launchBrowser,
  screenshot,
  signedInPage,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

/**
 * Every route of the router's table (e2e/route-table.json, kept equal to the router by a web
 * unit test), signed in as a user with a trained model and credits, at a phone and a desktop
 * width: no serious or critical axe violation, no sideways scrolling at 320 px, and a layout
 * shift under 0.05 while the page loads.
 */
const TABLE = JSON.parse(
  readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../route-table.json'),
    'utf8',
  ),
) as { path: string; protected: boolean }[];

const WIDTHS = [
  { name: 'phone', width: 375, height: 800 },
  { name: 'desktop', width: 1280, height: 800 },
];
const MAX_LAYOUT_SHIFT = 0.05;

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let db: Db;
let session: Session;
let trainingJobId: string;

beforeAll(async () => {
  app = await startApp();
  api = apiCaller(app.baseUrl);
  browser = await launchBrowser();
  db = createDb(app.databaseUrl, { max: 2 });
  const registered = await api<Session>(null, '/api/v1/auth/register', {
    email: uniqueEmail('a11y'),
    password: 'studio-portrait-1',
    name: 'Ada Audit',
  });
  expect(registered.status).toBe(201);
  session = registered.body;
  trainingJobId = await seedTrainedModel(db, session.user.id);
});
afterAll(async () => {
  await db?.destroy();
  await browser?.close();
  await app?.stop();
});

/** A completed model and its training task, and 3 credits, as a trained user has them. */
async function seedTrainedModel(database: Db, userId: string): Promise<string> {
  const id = crypto.randomUUID();
  await database
    .insertInto('models')
    .values({
      id,
      user_id: userId,
      name: 'Ada headshots',
      status: 'completed',
      artifact_key: `users/${userId}/models/${id}/model.npz`,
      artifact_format: 2,
    })
    .execute();
  await database
    .insertInto('tasks')
    .values({
      id,
      user_id: userId,
      task_type: 'training',
      status: 'completed',
      progress: 100,
      message: 'Training complete',
      model_id: id,
      params: JSON.stringify({ model_id: id }),
      completed_at: new Date(),
    })
    .execute();
  await database.updateTable('users').set({ models_trained: 1 }).where('id', '=', userId).execute();
  await applyLedgerEntry(database, {
    userId,
    delta: 3,
    reason: 'test_grant',
    idempotencyKey: `a11y:${userId}`,
  });
  return id;
}

/** A concrete address for a route of the table. */
function addressOf(routePath: string): string {
  if (routePath === '/*') return '/no-such-page';
  return routePath
    .replace(':sessionId', trainingJobId)
    .replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
}

/**
 * Counts layout shifts from the first paint (buffered), as the browser's cumulative layout shift
 * does: shifts right after user input do not count. Each shift is described by what moved (its
 * element, its first words, and its top edge before and after), so a failure names its cause.
 */
async function layoutShift(page: Page): Promise<{ total: number; shifts: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ total: number; shifts: string[] }>((resolve) => {
        let total = 0;
        const shifts: string[] = [];
        const describe = (node: Node | null) => {
          if (!(node instanceof Element)) return node?.nodeName ?? 'a removed node';
          const classes = Array.from(node.classList).slice(0, 3).join('.');
          const words = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
          return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${classes ? `.${classes}` : ''} "${words}"`;
        };
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node: Node | null; previousRect: DOMRect; currentRect: DOMRect }[];
          })[]) {
            if (entry.hadRecentInput) continue;
            total += entry.value;
            const moved = entry.sources
              .map(
                (source) =>
                  `${describe(source.node)} top ${Math.round(source.previousRect.top)} -> ${Math.round(source.currentRect.top)}`,
              )
              .join('; ');
            shifts.push(`${entry.value.toFixed(3)} at ${Math.round(entry.startTime)} ms: ${moved}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ total, shifts })));
      }),
  );
}

/** The page has settled: the network is quiet and no loading state is on screen. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .locator('[aria-busy="true"], [data-loading="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.locator('h1').first().waitFor({ state: 'visible' });
}

describe('every page, signed in', () => {
  for (const viewport of WIDTHS) {
    it(`axe, reflow and layout shift at ${viewport.width} px`, async () => {
      const { context, page } = await signedInPage(browser, session);
      await page.setViewportSize(viewport);
      const problems: string[] = [];
      try {
        for (const route of TABLE) {
          const address = addressOf(route.path);
          await page.goto(`${app.baseUrl}${address}`);
          await settle(page);
          const shift = await layoutShift(page);
          if (shift.total >= MAX_LAYOUT_SHIFT)
            problems.push(
              `${address}: layout shift ${shift.total.toFixed(3)} (${shift.shifts.join(' | ')})`,
            );
          const axe = await new AxeBuilder({ page }).analyze();
          for (const violation of axe.violations)
            if (violation.impact === 'serious' || violation.impact === 'critical')
              problems.push(
                `${address}: ${violation.impact} ${violation.id} (${violation.nodes
                  .slice(0, 3)
                  .map((n) => n.target.join(' '))
                  .join(', ')})`,
              );
          await screenshot(page, `a11y-${viewport.name}${address.replace(/\W+/g, '-')}`);
          if (viewport.width === 375) {
            await page.setViewportSize({ width: 320, height: viewport.height });
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            if (overflow > 0)
              problems.push(`${address}: scrolls sideways by ${overflow} px at 320`);
            await page.setViewportSize(viewport);
          }
        }
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('the header, signed out', () => {
  it('fits at 320 px: no sideways scrolling, every link and Get Started on screen', async () => {
    const page = await browser.newPage({ viewport: { width: 320, height: 640 } });
    try {
      for (const address of ['/', '/pricing', '/auth']) {
        await page.goto(`${app.baseUrl}${address}`);
        await settle(page);
        const nav = page.getByRole('navigation', { name: 'Main' });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${address} scrolls sideways`).toBeLessThanOrEqual(0);
        for (const control of [
          nav.getByRole('link', { name: 'Pricing' }),
          nav.getByRole('link', { name: 'Sign In' }),
          nav.getByRole('button', { name: 'Get Started' }),
        ]) {
          const box = (await control.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(320);
        }
      }
    } finally {
      await page.close();
    }
  });
});
