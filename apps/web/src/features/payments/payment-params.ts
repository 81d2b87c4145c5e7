import { MESSAGES } from '@studioshot/contracts/messages';
import type { PaymentIntentDetails } from './billing-api';
import {
  BILLING_CYCLES,
  findComingSoonCreditPack,
  findCreditPackage,
  findPlan,
  findSubscriptionItem,
  findTrainingPack,
  formatDollars,
  trainingPackById,
  type BillingCycle,
  type CreditPackage,
  type Plan,
  type TrainingPack,
} from './catalogue';
import type { SelectedPlan } from './client-storage';

/** The /payment query (product spec, Payment page). */
export type PaymentType = 'training' | 'upgrade' | 'credits' | 'generation';

/** What one visit to /payment sells. */
export type PaymentOrder =
  /** type=training with a stored plan: the plan subscription, billed monthly or yearly. */
  | { kind: 'training-plan'; plan: Plan; selected: SelectedPlan; cycle: BillingCycle }
  /** type=training alone: one training at the default training fee. */
  | { kind: 'training-slot'; pack: TrainingPack }
  /** type=training&quantity&price: the additional-training flow. */
  | { kind: 'training-pack'; pack: TrainingPack }
  /** type=upgrade&from=plan: to the stored target plan, prorated by the server. */
  | { kind: 'upgrade'; plan: Plan; from: string }
  /** type=credits&pack: a purchasable credit package. */
  | { kind: 'credits'; pack: CreditPackage }
  /** type=generation&user_id (style, prompt): one generation order. */
  | { kind: 'generation'; userId: string; style: string; prompt: string };

/** Where a refused order sends the user to choose again. */
export interface Recovery {
  to: string;
  label: string;
}

export type ParsedPayment =
  | {
      type: PaymentType | string;
      order: PaymentOrder;
      error?: undefined;
      /** Said above the order, e.g. a price in the address that is not the catalogue's. */
      notice?: string;
    }
  | { type: PaymentType | string; order?: undefined; error: string; recovery?: Recovery };

const CHOOSE_CREDITS: Recovery = { to: '/credits', label: 'Choose a credit package' };
const CHOOSE_PLAN: Recovery = { to: '/pricing', label: 'Choose a plan' };

/** The post-payment result page's defaults (product spec, /results). */
export const DEFAULT_GENERATION_STYLE = 'professional';
export const DEFAULT_GENERATION_PROMPT = 'professional person';

function trimmed(params: URLSearchParams, name: string): string | null {
  const value = params.get(name)?.trim();
  return value ? value : null;
}

/** The query parameter that names a plan's billing cycle, on /pricing and /payment. */
export const BILLING_PARAM = 'billing';

/** The billing cycle the address names: monthly when it names none, null when not one we sell. */
export function readBillingCycle(params: URLSearchParams): BillingCycle | null {
  const value = trimmed(params, BILLING_PARAM);
  if (value === null) return 'monthly';
  return BILLING_CYCLES.find((cycle) => cycle === value) ?? null;
}

/** Where a plan bought from /pricing is paid for (product spec: /payment?type=training). */
export function trainingPaymentPath(cycle: BillingCycle): string {
  return cycle === 'annual'
    ? `/payment?type=training&${BILLING_PARAM}=annual`
    : '/payment?type=training';
}

function dollarsToCents(value: string): number | null {
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return null;
  return Math.round(Number(value) * 100);
}

/**
 * Reads the query into an order. `selectedPlan` is the stored plan choice; `currentPlan` the
 * signed-in user's plan, used when an upgrade names no `from`.
 */
export function parsePaymentParams(
  params: URLSearchParams,
  context: { selectedPlan: SelectedPlan | null; currentPlan?: string | null },
): ParsedPayment {
  const type = trimmed(params, 'type') ?? 'generation';
  const invalid = (
    error: string = MESSAGES.invalidPaymentType,
    recovery?: Recovery,
  ): ParsedPayment => (recovery ? { type, error, recovery } : { type, error });

  switch (type) {
    case 'training': {
      const cycle = readBillingCycle(params);
      if (cycle === null) return invalid();
      const quantity = trimmed(params, 'quantity');
      const price = trimmed(params, 'price');
      if (quantity !== null || price !== null) {
        if (quantity === null || price === null || !/^\d+$/.test(quantity)) return invalid();
        const pack = findTrainingPack(Number(quantity));
        const linkCents = dollarsToCents(price);
        if (!pack || linkCents === null) return invalid();
        // The catalogue's price is the one charged; a different one in the address is said.
        return linkCents === pack.price_cents
          ? { type, order: { kind: 'training-pack', pack } }
          : {
              type,
              order: { kind: 'training-pack', pack },
              notice: `This link says ${formatDollars(linkCents)}; the current price is ${formatDollars(pack.price_cents)}.`,
            };
      }
      const selected = context.selectedPlan;
      const plan = selected ? findPlan(selected.planId) : undefined;
      if (selected && plan)
        return { type, order: { kind: 'training-plan', plan, selected, cycle } };
      const single = findTrainingPack(1);
      return single ? { type, order: { kind: 'training-slot', pack: single } } : invalid();
    }
    case 'upgrade': {
      // An upgrade keeps the billing cycle of the plan it moves up from: the server prices it so.
      const target = context.selectedPlan ? findPlan(context.selectedPlan.planId) : undefined;
      if (!target) return invalid(MESSAGES.noTargetPlan, CHOOSE_PLAN);
      const from = trimmed(params, 'from') ?? context.currentPlan ?? 'free';
      return { type, order: { kind: 'upgrade', plan: target, from } };
    }
    case 'credits': {
      const packId = trimmed(params, 'pack');
      const pack = packId ? findCreditPackage(packId) : undefined;
      // Published by the pricing call as Coming Soon: said so, with the packages on sale.
      if (!pack && packId && findComingSoonCreditPack(packId))
        return invalid(MESSAGES.creditPackComingSoon, CHOOSE_CREDITS);
      if (!pack) return invalid(MESSAGES.invalidCreditPack, CHOOSE_CREDITS);
      return { type, order: { kind: 'credits', pack } };
    }
    case 'generation': {
      const userId = trimmed(params, 'user_id');
      if (!userId) return invalid();
      return {
        type,
        order: {
          kind: 'generation',
          userId,
          style: trimmed(params, 'style') ?? DEFAULT_GENERATION_STYLE,
          prompt: trimmed(params, 'prompt') ?? DEFAULT_GENERATION_PROMPT,
        },
      };
    }
    default:
      return invalid();
  }
}

/** Back goes to /pricing for training or credits, /generate for generation, else /dashboard. */
export function paymentBackTarget(type: string): string {
  if (type === 'training' || type === 'credits') return '/pricing';
  if (type === 'generation') return '/generate';
  return '/dashboard';
}

const ONE_OFF = 'Secure checkout. A one-off purchase: you are charged once, when you pay.';

/**
 * The checkout's title and the line under it, in the words of what is bought: a subscription
 * speaks of renewing, a one-off purchase of being charged once. Without an order yet (a problem,
 * a resumed payment loading), the page's type decides.
 */
export function checkoutWording(
  order: PaymentOrder | null,
  type: string,
): { heading: string; lead: string } {
  switch (order?.kind) {
    case 'training-plan':
      return {
        heading: 'Start Your Subscription',
        lead: `Secure checkout. Your plan renews every ${order.cycle === 'annual' ? 'year' : 'month'} until you cancel; cancel any time.`,
      };
    case 'upgrade':
      return UPGRADE_WORDING;
    case 'training-slot':
    case 'training-pack':
      return { heading: 'Buy Trainings', lead: ONE_OFF };
    case 'credits':
      return { heading: 'Purchase Credits', lead: ONE_OFF };
    case 'generation':
      return { heading: 'Complete Your Order', lead: ONE_OFF };
    case undefined:
      if (type === 'upgrade') return UPGRADE_WORDING;
      if (type === 'training')
        return { heading: 'Start Your Subscription', lead: 'Secure checkout.' };
      if (type === 'credits') return { heading: 'Purchase Credits', lead: ONE_OFF };
      return { heading: 'Complete Your Order', lead: ONE_OFF };
  }
}

const UPGRADE_WORDING = {
  heading: 'Upgrade Your Subscription',
  lead: 'Secure checkout. You pay the difference for this period today; the plan then renews at its new price.',
};

/** A stable key per order, so one visit creates one payment intent. */
export function orderKey(order: PaymentOrder): string {
  switch (order.kind) {
    case 'training-plan':
      return `training-plan:${order.plan.id}:${order.cycle}`;
    case 'training-slot':
    case 'training-pack':
      return `${order.kind}:${order.pack.id}`;
    case 'upgrade':
      return `upgrade:${order.plan.id}:${order.from}`;
    case 'credits':
      return `credits:${order.pack.id}`;
    case 'generation':
      return `generation:${order.userId}:${order.style}:${order.prompt}`;
  }
}

/** The post-payment result page for a generation order. */
export function generationResultPath(
  order: Extract<PaymentOrder, { kind: 'generation' }>,
  paymentIntentId: string,
): string {
  const query = new URLSearchParams({
    payment_intent: paymentIntentId,
    style: order.style,
    prompt: order.prompt,
  });
  return `/results/${encodeURIComponent(order.userId)}?${query.toString()}`;
}

/** The payment kinds each page type sells (an upgrade from the free plan is a subscription). */
const KINDS_OF_TYPE: Record<PaymentType, readonly string[]> = {
  training: ['subscription', 'training_slots'],
  upgrade: ['upgrade', 'subscription'],
  credits: ['credits'],
  generation: ['generation'],
};

/**
 * The order a created intent pays for (/payment?payment_intent=...): read from the intent itself,
 * so a reload or a bank's 3-D Secure return resumes it whatever else the address says; an
 * address whose type names another purchase is refused.
 */
export function orderFromIntent(
  intent: Pick<PaymentIntentDetails, 'kind' | 'item_id' | 'from_plan'>,
  params: URLSearchParams,
  context: { userId: string },
): ParsedPayment {
  const named = trimmed(params, 'type');
  const type = named ?? typeOfKind(intent.kind);
  const invalid = (): ParsedPayment => ({ type, error: MESSAGES.paymentIntentOtherOrder });
  if (named && !(KINDS_OF_TYPE[named as PaymentType] ?? []).includes(intent.kind)) return invalid();
  switch (intent.kind) {
    case 'credits': {
      const pack = findCreditPackage(intent.item_id);
      return pack ? { type, order: { kind: 'credits', pack } } : invalid();
    }
    case 'training_slots': {
      const pack = trainingPackById(intent.item_id);
      if (!pack) return invalid();
      return {
        type,
        order: { kind: params.has('quantity') ? 'training-pack' : 'training-slot', pack },
      };
    }
    case 'subscription': {
      const item = findSubscriptionItem(intent.item_id);
      if (!item) return invalid();
      if (type === 'upgrade')
        return {
          type,
          order: { kind: 'upgrade', plan: item.plan, from: intent.from_plan ?? 'free' },
        };
      const selected: SelectedPlan = {
        planId: item.plan.id,
        type: 'subscription',
        planName: item.plan.name,
        // The plan's monthly price, as /pricing stores it; the cycle says what a period costs.
        price: item.plan.price_cents,
        credits: item.plan.credits,
      };
      return {
        type,
        order: { kind: 'training-plan', plan: item.plan, selected, cycle: item.cycle },
      };
    }
    case 'upgrade': {
      const plan = findPlan(intent.item_id);
      return plan
        ? { type, order: { kind: 'upgrade', plan, from: intent.from_plan ?? 'free' } }
        : invalid();
    }
    case 'generation':
      return {
        type,
        order: {
          kind: 'generation',
          userId: trimmed(params, 'user_id') ?? context.userId,
          style: trimmed(params, 'style') ?? DEFAULT_GENERATION_STYLE,
          prompt: trimmed(params, 'prompt') ?? DEFAULT_GENERATION_PROMPT,
        },
      };
    default:
      return invalid();
  }
}

function typeOfKind(kind: string): PaymentType {
  if (kind === 'credits') return 'credits';
  if (kind === 'upgrade') return 'upgrade';
  if (kind === 'generation') return 'generation';
  return 'training';
}

/** Where to choose again after a refused order of this type. */
export function paymentRecovery(type: string): Recovery {
  if (type === 'credits') return CHOOSE_CREDITS;
  if (type === 'training' || type === 'upgrade') return CHOOSE_PLAN;
  if (type === 'generation') return { to: '/generate', label: 'Back to generate' };
  return { to: '/dashboard', label: 'Back to dashboard' };
}
