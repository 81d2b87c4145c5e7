// The Content-Security-Policy the API sends with every answer (the web app's pages included):
// Stripe's origins only when Stripe takes the cards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentSecurityDirectives,
  STRIPE_CSP_SOURCES,
} from '../src/middleware/security-headers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET } from './stripe-helpers.js';

/** The policy as directive name -> sources. */
async function policyOf(t: TestApp): Promise<Map<string, string[]>> {
  const res = await t.request.get('/health');
  const header = res.headers['content-security-policy'];
  expect(header).toBeTruthy();
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

let testMode: TestApp;
let stripeMode: TestApp;
beforeAll(async () => {
  [testMode, stripeMode] = await Promise.all([
    createTestApp(),
    // No Stripe call is made: the header alone is read.
    createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    }),
  ]);
});
afterAll(() => Promise.all([testMode.close(), stripeMode.close()]));

describe('Content-Security-Policy', () => {
  it('test mode: our own origin only, no Stripe anywhere', async () => {
    const policy = await policyOf(testMode);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.has('frame-src')).toBe(false);
    expect([...policy.values()].flat().some((source) => source.includes('stripe'))).toBe(false);
    expect(policy.get('upgrade-insecure-requests')).toEqual([]);
  });

  it('a bucket on plain http turns off the upgrade of insecure requests; one on https keeps it', () => {
    const http = contentSecurityDirectives('test', 'http://127.0.0.1:9000');
    expect(http['upgrade-insecure-requests']).toBeNull();
    expect(http['img-src']).toContain('http://127.0.0.1:9000');
    const https = contentSecurityDirectives('test', 'https://shots.s3.us-east-1.amazonaws.com');
    expect('upgrade-insecure-requests' in https).toBe(false);
  });

  it("Stripe mode: Stripe.js, its frames and its API allowed, as Stripe's guide lists them", async () => {
    const policy = await policyOf(stripeMode);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://maps.googleapis.com',
    ]);
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://api.stripe.com',
      'https://maps.googleapis.com',
    ]);
    // Nothing else is opened: the rest of the policy is test mode's.
    const base = await policyOf(testMode);
    for (const [name, sources] of policy) {
      if (name in STRIPE_CSP_SOURCES) continue;
      expect(sources, name).toEqual(base.get(name));
    }
  });
});
