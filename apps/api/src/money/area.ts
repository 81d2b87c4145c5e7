import { SCHEDULED_JOBS } from '@studioshot/contracts';
import type { Connections } from '../areas/connections.js';
import type { Env } from '../env.js';
import type { Logger } from '@studioshot/observability';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { GenerationsRepository } from '../repositories/generations.repository.js';
import type { TaskEventsRepository } from '../repositories/task-events.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';
import { BillingRepository } from './billing.repository.js';
import { BillingService } from './billing.service.js';
import { CheckoutService } from './checkout.service.js';
import { FulfilmentService } from './fulfilment.service.js';
import { GenerationOrdersService } from './generation-orders.service.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import { createStripeClient, StripePaymentProvider } from './payment-providers/stripe-provider.js';
import { TestPaymentProvider } from './payment-providers/test-provider.js';
import { PaymentsRepository } from './payments.repository.js';
import { RefundsService } from './refunds.service.js';
import { RenewalsService } from './renewals.service.js';
import { StripeBillingRepository } from './stripe-billing.repository.js';
import { StripeIntakeService } from './stripe-intake.service.js';
import { SubscriptionPeriodsRepository } from './subscription-periods.repository.js';
import { SubscriptionSyncService } from './subscription-sync.service.js';
import { SubscriptionsService } from './subscriptions.service.js';
import { UpgradesService } from './upgrades.service.js';

/** The money area's slice of the container: what its routes, jobs and the other areas use. */
export interface MoneyArea {
  /** The provider intents are made with (test or Stripe), as the other areas need it. */
  paymentProvider: PaymentProvider;
  /** Present in test payment mode only. */
  testPaymentProvider?: TestPaymentProvider;
  /** The catalogue answer and every payment intent. */
  checkout: CheckoutService;
  /** Where purchases take effect, once each. */
  fulfilment: FulfilmentService;
  /** The $29 order a generation is bound to, and its refund when the generation fails. */
  generationOrders: GenerationOrdersService;
  /** Billing periods: renewals, credit months, retries and lapses (the test clock too). */
  renewals: RenewalsService;
  subscriptions: SubscriptionsService;
  /** Billing history, receipts and resuming created payment intents. */
  billing: BillingService;
  /** The 30-day money-back guarantee: refunds their owners ask for. */
  refunds: RefundsService;
  /** Stripe's webhook deliveries; absent without a webhook secret. */
  stripeIntake?: StripeIntakeService;
  /** Stripe Billing's subscriptions kept in step with ours; absent without a webhook secret. */
  subscriptionSync?: SubscriptionSyncService;
}

/**
 * Wires the money chain: checkout, then fulfilment (which renewals and the upgrade proration
 * serve), then the generation orders and Stripe's intake and subscription sync that report to
 * it. Each piece is given what it calls, so nothing is bound late.
 */
export function createMoneyArea(
  env: Env,
  shared: Pick<Connections, 'db' | 'logger' | 'scheduled'> & {
    users: UsersRepository;
    ledger: CreditLedgerRepository;
    generations: Pick<GenerationsRepository, 'hasGenerationSource'>;
  },
): MoneyArea {
  const { db, logger, users, ledger } = shared;
  const payments = new PaymentsRepository(db);
  const testPaymentProvider =
    env.PAYMENT_PROVIDER === 'test' ? new TestPaymentProvider(db) : undefined;
  const stripe = createStripeClient({
    // In test mode the SDK only verifies webhook signatures, which needs no real key.
    secretKey: env.STRIPE_SECRET_KEY ?? 'sk_test_signature_verification_only',
    apiBase: env.STRIPE_API_BASE,
  });
  const stripeBilling = new StripeBillingRepository(db);
  const stripeProvider = testPaymentProvider
    ? undefined
    : new StripePaymentProvider(stripe, stripeBilling);
  const provider: PaymentProvider = testPaymentProvider ?? stripeProvider!;
  // The test clock runs only with the test provider: no real money moves on a moved clock.
  const testClock = env.TEST_CLOCK === true && testPaymentProvider !== undefined;
  const periods = new SubscriptionPeriodsRepository(db);
  const billingRepo = new BillingRepository(db);
  const renewals = new RenewalsService({
    periods,
    ledger,
    provider,
    scheduled: shared.scheduled,
    testClock,
    logger,
  });
  const upgrades = new UpgradesService({
    billing: billingRepo,
    users,
    payments,
    ledger,
    clockOffsetMs: testClock ? (userId) => periods.clockOffsetMs(db, userId) : undefined,
  });
  const checkout = new CheckoutService({
    payments,
    users,
    provider,
    generations: shared.generations,
    upgrades,
    stripePublishableKey: stripeProvider ? env.STRIPE_PUBLISHABLE_KEY : undefined,
    logger,
  });
  const fulfilment = new FulfilmentService({
    payments,
    ledger,
    users,
    provider,
    upgrades,
    renewals,
    payWithTestCard:
      testPaymentProvider && env.CONFIRM_PAYS_WITH_TEST_CARD
        ? (intentId) => testPaymentProvider.payWithSuccessCard(intentId)
        : undefined,
    logger,
  });
  const generationOrders = new GenerationOrdersService({
    payments,
    fulfilment,
    provider,
    logger,
  });
  // Stripe-signed webhooks; test mode takes them too when a secret is set (payment intents only).
  const subscriptionSync = env.STRIPE_WEBHOOK_SECRET
    ? new SubscriptionSyncService({
        billing: stripeBilling,
        payments,
        fulfilment,
        renewals,
        provider: stripeProvider,
        logger,
      })
    : undefined;
  const stripeIntake =
    env.STRIPE_WEBHOOK_SECRET && subscriptionSync
      ? new StripeIntakeService({
          stripe,
          secret: env.STRIPE_WEBHOOK_SECRET,
          toleranceSeconds: env.WEBHOOK_TOLERANCE_SECONDS,
          billing: stripeBilling,
          fulfilment,
          sync: subscriptionSync,
          logger,
        })
      : undefined;
  return {
    paymentProvider: provider,
    testPaymentProvider,
    checkout,
    fulfilment,
    generationOrders,
    renewals,
    subscriptions: new SubscriptionsService({
      payments,
      periods,
      users,
      renewals,
      stripe: subscriptionSync,
    }),
    billing: new BillingService({
      billing: billingRepo,
      payments,
      users,
      provider,
      publicUrl: env.PUBLIC_URL,
      logger,
    }),
    refunds: new RefundsService({
      payments,
      billing: billingRepo,
      ledger,
      renewals,
      provider,
      logger,
    }),
    stripeIntake,
    subscriptionSync,
  };
}

const MINUTE_MS = 60_000;

/**
 * The money area's timed work. Each subscription's next due moment has its own delayed job; the
 * sweep catches any a lost job (a Redis flush, a crash between commit and scheduling) would have
 * missed. A paid generation's failure records its refund as due; the refund sweep carries it
 * out, and retries a refund the provider refused, and runs as soon as this process sees a paid
 * generation end. Answers how to stop listening for those ends.
 */
export async function registerMoneyJobs(
  scheduled: ScheduledJobs,
  deps: Pick<MoneyArea, 'renewals' | 'subscriptionSync' | 'generationOrders'> & {
    taskEvents: Pick<TaskEventsRepository, 'onChange'>;
    logger: Logger;
  },
): Promise<() => void> {
  const { renewals, subscriptionSync, generationOrders, logger } = deps;
  scheduled.handle(SCHEDULED_JOBS.billingRenew, async (run) => {
    const userId = run.data.user_id;
    // Stripe mode: Stripe Billing charges; what it did is read back before anything is decided.
    await subscriptionSync?.reconcile(userId);
    await renewals.processDue(userId);
  });
  await scheduled.every(SCHEDULED_JOBS.billingSweep, { every: MINUTE_MS }, async () => {
    const processed = await renewals.processAllDue();
    if (processed > 0) logger.info({ processed }, 'subscriptions renewed, retried or ended');
  });
  await scheduled.every(SCHEDULED_JOBS.generationOrderRefunds, { every: MINUTE_MS }, async () => {
    const refunded = await generationOrders.refundDue();
    if (refunded > 0) logger.info({ refunded }, 'failed paid generations refunded');
  });
  return queueRefundsAtGenerationEnd({ ...deps, scheduled });
}

/**
 * A generation that ended failed or cancelled with its order due back: the refund job runs now,
 * once (its id names the generation), rather than at the next sweep. Each replica sees every
 * end; the job's id makes it one run.
 */
export function queueRefundsAtGenerationEnd(deps: {
  taskEvents: Pick<TaskEventsRepository, 'onChange'>;
  scheduled: Pick<ScheduledJobs, 'at'>;
  generationOrders: Pick<GenerationOrdersService, 'refundDueFor'>;
  logger: Logger;
}): () => void {
  const { taskEvents, scheduled, generationOrders, logger } = deps;
  return taskEvents.onChange((change) => {
    // A paid order renders one template: a plain generation (the hint may be missing).
    if (change.taskType && change.taskType !== 'generation') return;
    void (async () => {
      if (!(await generationOrders.refundDueFor(change.taskId))) return;
      await scheduled.at(SCHEDULED_JOBS.generationOrderRefunds, {
        id: `refund.${change.taskId}`,
        runAt: new Date(),
      });
    })().catch((error: unknown) =>
      logger.error({ err: error, taskId: change.taskId }, 'could not queue a refund'),
    );
  });
}
