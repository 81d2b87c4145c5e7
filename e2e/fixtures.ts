import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import sharp, { type Sharp } from 'sharp';
import { expect } from 'vitest';
import type { Session } from './harness.js';

// What several browser tests need: test photos, API calls, and users who may train.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');

export const uniqueEmail = (who: string) =>
  `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export type ApiCaller = <T>(
  session: Session | null,
  path: string,
  body?: unknown,
  method?: string,
) => Promise<{ status: number; body: T }>;

/** JSON calls to the running API, signed in as `session` when given. */
export function apiCaller(baseUrl: string): ApiCaller {
  return async <T>(session: Session | null, p: string, body?: unknown, method = 'POST') => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}

/** A new account with one training slot bought through the API (test card 4242). */
export async function userWithTrainingSlot(api: ApiCaller, name: string): Promise<Session> {
  const registered = await api<Session>(null, '/api/v1/auth/register', {
    email: uniqueEmail(name.toLowerCase()),
    password: 'studio-portrait-1',
    name,
  });
  expect(registered.status).toBe(201);
  const session = registered.body;
  const intent = await api<{ payment_intent_id: string; client_secret: string }>(
    session,
    '/api/v1/payments/create-training-purchase',
    { quantity: 1 },
  );
  expect(intent.status).toBeLessThan(300);
  const card = await api(session, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Test User' },
  });
  expect(card.status).toBeLessThan(300);
  const confirmed = await api(session, '/api/v1/payments/confirm-additional-training', {
    payment_intent_id: intent.body.payment_intent_id,
    pack_id: 'training_1',
    amount: 2500,
    payment_method: 'stripe',
  });
  expect(confirmed.status).toBeLessThan(300);
  return session;
}

/**
 * Twelve distinct photos of one person (the astronaut fixtures of the photo checks, each changed a
 * little: crop, light, mirror), all at least 512 px. Two are big enough for the browser to
 * optimise them: a JPEG stored on its side with EXIF orientation 6 (it must arrive upright), and a
 * PNG. Plus a group shot, which the checks must flag.
 */
export async function makeTrainingPhotos(dir: string): Promise<string[]> {
  const source = (name: string) => sharp(path.join(FIXTURES, name)).rotate();
  const variants: [string, Sharp][] = [
    ['portrait-01.jpg', source('astronaut.jpg').modulate({ brightness: 0.97 })],
    ['portrait-02.jpg', source('astronaut-mirror.jpg').modulate({ brightness: 1.03 })],
    ['portrait-03.jpg', source('astronaut-warm.jpg').modulate({ brightness: 0.98 })],
    ['portrait-04.jpg', source('astronaut-tilted.jpg').modulate({ brightness: 1.02 })],
    ['portrait-05.jpg', source('astronaut-closer.jpg').modulate({ brightness: 0.96 })],
    ['portrait-06.jpg', source('astronaut-low-quality.jpg').modulate({ brightness: 1.04 })],
    [
      'portrait-08.jpg',
      source('astronaut.jpg').extract({ left: 12, top: 0, width: 488, height: 488 }).resize(560),
    ],
    ['portrait-09.jpg', source('astronaut.jpg').flop().modulate({ brightness: 0.93 })],
    [
      'portrait-10.jpg',
      source('astronaut-warm.jpg')
        .extract({ left: 0, top: 8, width: 500, height: 500 })
        .resize(540),
    ],
    ['portrait-11.jpg', source('astronaut-closer.jpg').flop().modulate({ saturation: 0.85 })],
  ];
  const files: string[] = [];
  for (const [name, image] of variants) {
    const file = path.join(dir, name);
    await image.jpeg({ quality: 88 }).toFile(file);
    files.push(file);
  }
  // Over 800KB, stored sideways (2240x2560) with "rotate 90° clockwise to view": the browser must
  // turn it upright while scaling it to 1024x896.
  const sideways = path.join(dir, 'portrait-07.jpg');
  await sharp(path.join(FIXTURES, 'astronaut-exif-rotated.jpg'))
    .resize(2240, 2560)
    .jpeg({ quality: 97 })
    .withMetadata({ orientation: 6 })
    .toFile(sideways);
  files.splice(6, 0, sideways);
  // Over 800KB: the browser scales it to 1024 px and re-encodes it as JPEG.
  const large = path.join(dir, 'portrait-12.png');
  await source('astronaut.jpg')
    .resize(1800, 1800, { kernel: 'lanczos3' })
    .modulate({ brightness: 1.05 })
    .png({ compressionLevel: 1 })
    .toFile(large);
  files.push(large);
  return files;
}

/** Waits until `count` photos are shown and none is still being checked. */
export async function waitForChecks(page: Page, count: number) {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('article[data-state]').length === n &&
      document.querySelectorAll('article[data-state="checking"]').length === 0,
    count,
    { timeout: 60_000 },
  );
}
