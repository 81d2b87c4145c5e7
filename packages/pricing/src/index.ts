/**
 * The product's catalogue and business constants (spec 'Plans and prices'). The server charges
 * only what is here; the client displays it. Prices are in US cents.
 */
import type { PlanType } from '@studioshot/contracts';
import { PLANS_FROM_CENTS } from './entry-prices.js';
import { GENERATION_ORDER } from './generation-order.js';

export { GENERATION_ORDER, PLANS_FROM_CENTS };

export type PaidPlan = Exclude<PlanType, 'free'>;

export const CURRENCY = 'usd';

/** Plan tiers in ascending order; an upgrade is only offered to a later tier. */
export const PLAN_TIERS: readonly PlanType[] = ['free', 'starter', 'professional', 'premium'];
export const TOP_TIER: PlanType = 'premium';

export function tierRank(plan: PlanType): number {
  return PLAN_TIERS.indexOf(plan);
}

/** One credit runs one generation, which makes this many headshots. */
export const IMAGES_PER_GENERATION = GENERATION_ORDER.images;

/**
 * What a number of credits buys, in the one wording every page uses: '4 credits (16 headshots)'.
 * A credit is one generation of IMAGES_PER_GENERATION headshots, never one headshot.
 */
export function creditsWithHeadshots(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'} (${credits * IMAGES_PER_GENERATION} headshots)`;
}

export interface Plan {
  id: PaidPlan;
  name: string;
  description: string;
  /** Per month. */
  price_cents: number;
  /** Headshot credits granted with each month paid. */
  credits: number;
  /** Personal models the plan allows. */
  training_limit: number;
  features: string[];
  popular: boolean;
}

/** The subscription plans (spec: subscription panel prices and model limits). */
export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'One personal model and a monthly allowance of headshots.',
    price_cents: PLANS_FROM_CENTS,
    credits: 4,
    training_limit: 1,
    features: [
      '1 personal AI model',
      `${creditsWithHeadshots(4)} every month`,
      '60 studio styles',
      '1024x1024 downloads',
    ],
    popular: false,
  },
  {
    id: 'professional',
    name: 'Professional',
    description: 'For professionals who want several looks and regular refreshes.',
    price_cents: 1999,
    credits: 8,
    training_limit: 5,
    features: [
      '5 personal AI models',
      `${creditsWithHeadshots(8)} every month`,
      '60 studio styles',
      'Priority training queue',
    ],
    popular: true,
  },
  {
    id: 'premium',
    name: 'Premium',
    description: 'For teams and agencies: the most models and credits.',
    price_cents: 3999,
    credits: 16,
    training_limit: 10,
    features: [
      '10 personal AI models',
      `${creditsWithHeadshots(16)} every month`,
      'Custom prompts (annual)',
      'Fastest queue',
    ],
    popular: false,
  },
];

/** Queue priorities, best first (the task queue's `urgent`, `high`, `normal`). */
export const QUEUE_PRIORITIES = ['urgent', 'high', 'normal'] as const;
export type QueuePriority = (typeof QUEUE_PRIORITIES)[number];
export type QueuedWork = 'training' | 'generation';

/**
 * The best queue priority each plan buys, per kind of work: what the plan cards sell
 * (Professional's 'Priority training queue', Premium's 'Fastest queue'). The server queues at
 * this priority unless the client asks for a lower one; a higher request is lowered to it.
 */
export const PLAN_QUEUE_PRIORITY: Record<PlanType, Record<QueuedWork, QueuePriority>> = {
  free: { training: 'normal', generation: 'normal' },
  starter: { training: 'normal', generation: 'normal' },
  professional: { training: 'high', generation: 'normal' },
  premium: { training: 'urgent', generation: 'urgent' },
};

/**
 * The priority a task is queued at: the plan's best for this work, or the client's request when
 * that is lower (a request above the plan is lowered, not refused).
 */
export function queuePriority(
  plan: PlanType,
  work: QueuedWork,
  requested?: QueuePriority,
): QueuePriority {
  const allowed = PLAN_QUEUE_PRIORITY[plan][work];
  if (!requested) return allowed;
  return QUEUE_PRIORITIES.indexOf(requested) > QUEUE_PRIORITIES.indexOf(allowed)
    ? requested
    : allowed;
}

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

/** A plan's display name; the free plan included. */
export function planLabelOf(plan: PlanType): string {
  return plan === 'free' ? 'Free' : (findPlan(plan)?.name ?? plan);
}

export function planTrainingLimit(plan: PlanType): number {
  return plan === 'free' ? 0 : (findPlan(plan)?.training_limit ?? 0);
}

export const BILLING_CYCLES = ['monthly', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Annual billing charges this many months for a year: two months free. */
export const ANNUAL_PRICE_MONTHS = 10;

/**
 * What one billing period of a plan costs: a month, or a year at ANNUAL_PRICE_MONTHS times the
 * monthly price. Credits and the training allowance are granted monthly either way.
 */
export function planPeriodPriceCents(plan: Pick<Plan, 'price_cents'>, cycle: BillingCycle): number {
  return cycle === 'annual' ? plan.price_cents * ANNUAL_PRICE_MONTHS : plan.price_cents;
}

/** Months in one billing period. */
export const BILLING_CYCLE_MONTHS: Record<BillingCycle, number> = { monthly: 1, annual: 12 };

/** Days after the period end on which a failed renewal is tried again; after the last, it lapses. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

/**
 * A subscription's catalogue item id (a payment's item_id): the plan id for monthly billing,
 * `{plan}_annual` for annual.
 */
export function subscriptionItemId(plan: PaidPlan, cycle: BillingCycle): string {
  return cycle === 'annual' ? `${plan}_annual` : plan;
}

/** The plan and billing cycle a subscription item id names, or undefined. */
export function findSubscriptionItem(
  itemId: string,
): { plan: Plan; cycle: BillingCycle; price_cents: number } | undefined {
  const annual = itemId.endsWith('_annual');
  const plan = findPlan(annual ? itemId.slice(0, -'_annual'.length) : itemId);
  if (!plan) return undefined;
  const cycle: BillingCycle = annual ? 'annual' : 'monthly';
  return { plan, cycle, price_cents: planPeriodPriceCents(plan, cycle) };
}

export interface CreditPackage {
  id: string;
  name: string;
  credits: number;
  price_cents: number;
  original_price_cents: number | null;
  savings: string | null;
  popular: boolean;
  badge: string | null;
  features: string[];
}

/** Purchasable credit packages (spec: credits page). */
export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  {
    id: 'starter_pack',
    name: 'Starter Pack',
    credits: 20,
    price_cents: 999,
    original_price_cents: null,
    savings: null,
    popular: false,
    badge: null,
    features: [creditsWithHeadshots(20), 'All 60 styles', 'Credits never expire'],
  },
  {
    id: 'professional_pack',
    name: 'Professional Pack',
    credits: 60,
    price_cents: 2499,
    original_price_cents: 2999,
    savings: '16% OFF',
    popular: true,
    badge: 'Most Popular',
    features: [creditsWithHeadshots(60), 'All 60 styles', 'Credits never expire'],
  },
  {
    id: 'business_pack',
    name: 'Business Pack',
    credits: 150,
    price_cents: 4999,
    original_price_cents: 7499,
    savings: '34% OFF',
    popular: false,
    badge: 'Best for Teams',
    features: [creditsWithHeadshots(150), 'All 60 styles', 'Credits never expire'],
  },
  {
    id: 'enterprise_pack',
    name: 'Enterprise Pack',
    credits: 350,
    price_cents: 9999,
    original_price_cents: 17499,
    savings: '42% OFF',
    popular: false,
    badge: 'Best Value',
    features: [creditsWithHeadshots(350), 'All 60 styles', 'Credits never expire'],
  },
];

export function findCreditPackage(id: string): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((pack) => pack.id === id);
}

/** Per-credit price in dollars, to 2 decimals, as the credits page shows it. */
export function pricePerCredit(pack: Pick<CreditPackage, 'price_cents' | 'credits'>): string {
  return (pack.price_cents / 100 / pack.credits).toFixed(2);
}

export interface CreditPack {
  id: string;
  name: string;
  price_cents: number;
  credits: number;
  description: string;
}

/** The pricing page's credit packs: shown as Coming Soon, not purchasable (spec: two price sets). */
export const COMING_SOON_CREDIT_PACKS: readonly CreditPack[] = [
  {
    id: 'credits_10',
    name: '10 Credits',
    price_cents: 1999,
    credits: 10,
    description: 'Coming soon',
  },
  {
    id: 'credits_25',
    name: '25 Credits',
    price_cents: 3999,
    credits: 25,
    description: 'Coming soon',
  },
  {
    id: 'credits_50',
    name: '50 Credits',
    price_cents: 6999,
    credits: 50,
    description: 'Coming soon',
  },
];

/** A pack of the Coming Soon set: published by the pricing call, not for sale yet. */
export function findComingSoonCreditPack(id: string): CreditPack | undefined {
  return COMING_SOON_CREDIT_PACKS.find((pack) => pack.id === id);
}

export type TrainingPackId = 'training_1' | 'training_3' | 'training_5';

export interface TrainingPack {
  id: TrainingPackId;
  quantity: 1 | 3 | 5;
  price_cents: number;
  savings: string | null;
}

/** Extra training slots (spec: training-limit modal; $25 each, 3 for $45). */
export const TRAINING_PACKS: readonly TrainingPack[] = [
  { id: 'training_1', quantity: 1, price_cents: 2500, savings: null },
  { id: 'training_3', quantity: 3, price_cents: 4500, savings: '40% saving' },
  { id: 'training_5', quantity: 5, price_cents: 6500, savings: '48% saving' },
];

export function findTrainingPack(quantity: number): TrainingPack | undefined {
  return TRAINING_PACKS.find((pack) => pack.quantity === quantity);
}

export function trainingPackById(id: string): TrainingPack | undefined {
  return TRAINING_PACKS.find((pack) => pack.id === id);
}

export { freePlanSubscription } from './free-plan.js';

/** What one credit is worth at list price (the smallest credit package), in cents. */
export const CREDIT_LIST_PRICE_CENTS =
  CREDIT_PACKAGES[0]!.price_cents / CREDIT_PACKAGES[0]!.credits;

export const TRAINING_FEE_DOLLARS = 25;
export const FREE_CREDITS_INCLUDED = 0;
export const CREDITS_PER_GENERATION = 1;
export const LOW_CREDIT_THRESHOLD = 5;
export const VERY_LOW_CREDIT_THRESHOLD = 2;
/** Always-on GPU cost per month (dollars) that the queue's cost projection compares against. */
export const ALWAYS_ON_COST = 1130;
/** The spec shows a fixed plan reset date. */
export const PLAN_RESET_DATE = '2025-10-01';

export * from './proration.js';

/**
 * What the pricing call answers (GET /api/v1/payments/pricing): the whole catalogue as the pages
 * show it. The API serves it and the web's tests answer with it, so both read one catalogue.
 */
export function pricingAnswer(options: { testMode: boolean; stripePublishableKey?: string }) {
  const plans = PLANS.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price: p.price_cents,
    price_cents: p.price_cents,
    credits: p.credits,
    training_limit: p.training_limit,
    features: [...p.features],
    popular: p.popular,
  }));
  return {
    pricing_options: plans,
    subscription_plans: plans,
    onetime_packages: CREDIT_PACKAGES.map((p) => ({ ...p, features: [...p.features] })),
    credit_packs: COMING_SOON_CREDIT_PACKS.map((p) => ({ ...p, for_sale: false })),
    training_packs: TRAINING_PACKS.map((p) => ({ ...p })),
    training_fee_dollars: TRAINING_FEE_DOLLARS,
    free_credits_included: FREE_CREDITS_INCLUDED,
    currency: CURRENCY,
    test_mode: options.testMode,
    ...(options.stripePublishableKey
      ? { stripe_publishable_key: options.stripePublishableKey }
      : {}),
  };
}

export type PricingAnswer = ReturnType<typeof pricingAnswer>;
