// Stripe mode against stripe-mock, Stripe's own stand-in for its API (`npm test` installs and
// starts it: scripts/lib.sh ensure_stripe_mock), driven by the real stripe SDK. stripe-mock checks
// every request against Stripe's API description and answers with sample objects, but keeps no
// state: what Stripe would do afterwards (an invoice paid a month later, a subscription cancelled)
// reaches the API as signed webhook events, replayed here.
import { addMonthsUtc } from '@studioshot/pricing';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { createTestApp, type TestApp } from './helpers.js';

export const WEBHOOK_SECRET = 'whsec_stripe_mode_tests_0123456789';
export const SECRET_KEY = 'sk_test_StudioshotStripeMode42';
export const PUBLISHABLE_KEY = 'pk_test_StudioshotStripeMode42';

export function stripeMockUrl(): string {
  const url = process.env.STRIPE_MOCK_URL;
  if (!url)
    throw new Error(
      'STRIPE_MOCK_URL is not set: the Stripe-mode tests need stripe-mock. Run them with ' +
        '`npm test`, or start it (scripts/lib.sh ensure_stripe_mock) and export STRIPE_MOCK_URL.',
    );
  return url;
}

/** The real app in Stripe mode, its SDK pointed at stripe-mock. */
export function createStripeApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_API_BASE: stripeMockUrl(),
    ...overrides,
  });
}

const signer = new Stripe('sk_test_signing_only');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export interface StripeEvent {
  id: string;
  payload: string;
}

/** A Stripe event as Stripe sends it; `created` orders snapshots of one object. */
export function stripeEvent(
  type: string,
  object: object,
  options: { id?: string; created?: Date } = {},
): StripeEvent {
  const id = options.id ?? newId('evt');
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-08-27.basil',
    created: seconds(options.created ?? new Date()),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  return { id, payload };
}

/** Posts the event signed with our webhook secret, as Stripe delivers it. */
export function deliver(t: TestApp, event: StripeEvent) {
  const signature = signer.webhooks.generateTestHeaderString({
    payload: event.payload,
    secret: WEBHOOK_SECRET,
  });
  return t.request
    .post('/api/v1/payments/webhook')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signature)
    .send(event.payload);
}

export interface Period {
  start: Date;
  end: Date;
}

/** Monthly periods, the first starting `monthsAgo` months (and an hour) before now. */
export function monthlyPeriods(monthsAgo: number, count: number): Period[] {
  // Whole seconds, as Stripe's timestamps are.
  const first = addMonthsUtc(new Date(Math.floor(Date.now() / 1000 - 3600) * 1000), -monthsAgo);
  return Array.from({ length: count }, (_, i) => ({
    start: addMonthsUtc(first, i),
    end: addMonthsUtc(first, i + 1),
  }));
}

/** An address of the shape Stripe gives an invoice's hosted page (a long random token). */
export function hostedInvoiceUrl(invoiceId: string): string {
  return `https://invoice.stripe.com/i/acct_studioshot/test_${invoiceId}_${randomBytes(12).toString('hex')}`;
}

/** An invoice of a subscription for one period, as `invoice.*` events carry it. */
export function invoice(input: {
  subscription: string;
  period: Period;
  amount: number;
  billingReason: 'subscription_create' | 'subscription_cycle';
  paid: boolean;
  id?: string;
  attempt?: number;
  nextAttempt?: Date | null;
  /** Its hosted page; Stripe gives every finalized invoice one. */
  hostedUrl?: string;
}) {
  const id = input.id ?? newId('in');
  return {
    id,
    object: 'invoice',
    billing_reason: input.billingReason,
    status: input.paid ? 'paid' : 'open',
    currency: 'usd',
    amount_due: input.amount,
    amount_paid: input.paid ? input.amount : 0,
    attempt_count: input.attempt ?? 1,
    next_payment_attempt: input.nextAttempt ? seconds(input.nextAttempt) : null,
    hosted_invoice_url: input.hostedUrl ?? hostedInvoiceUrl(id),
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: input.subscription, metadata: {} },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: newId('il'),
          object: 'line_item',
          amount: input.amount,
          currency: 'usd',
          period: { start: seconds(input.period.start), end: seconds(input.period.end) },
        },
      ],
    },
  };
}

/** A subscription snapshot, as `customer.subscription.*` events carry it. */
export function subscription(input: {
  id: string;
  status: string;
  period: Period;
  cancelAtPeriodEnd?: boolean;
  cancellationReason?: string | null;
}) {
  return {
    id: input.id,
    object: 'subscription',
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    cancellation_details: { reason: input.cancellationReason ?? null },
    items: {
      object: 'list',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          current_period_start: seconds(input.period.start),
          current_period_end: seconds(input.period.end),
        },
      ],
    },
  };
}
