import { MESSAGES } from '@studioshot/contracts/messages';
import {
  findCreditPackage,
  findPlan,
  findTrainingPack,
  findUpgradeOffer,
  type CreditPackage,
  type Plan,
  type TrainingPack,
} from './catalogue';
import type { SelectedPlan } from './client-storage';

/** The /payment query (product spec, Payment page). */
export type PaymentType = 'training' | 'upgrade' | 'credits' | 'generation';

/** What one visit to /payment sells. */
export type PaymentOrder =
  /** type=training with a stored plan: the plan subscription. */
  | { kind: 'training-plan'; plan: Plan; selected: SelectedPlan }
  /** type=training alone: one training at the default training fee. */
  | { kind: 'training-slot'; pack: TrainingPack }
  /** type=training&quantity&price: the additional-training flow. */
  | { kind: 'training-pack'; pack: TrainingPack }
  /** type=upgrade&from=plan: to the stored target plan. */
  | { kind: 'upgrade'; plan: Plan; from: string; priceCents: number }
  /** type=credits&pack: a purchasable credit package. */
  | { kind: 'credits'; pack: CreditPackage }
  /** type=generation&user_id (style, prompt): one generation order. */
  | { kind: 'generation'; userId: string; style: string; prompt: string };

export type ParsedPayment =
  | { type: PaymentType | string; order: PaymentOrder; error?: undefined }
  | { type: PaymentType | string; order?: undefined; error: string };

/** The post-payment result page's defaults (product spec, /results). */
export const DEFAULT_GENERATION_STYLE = 'professional';
export const DEFAULT_GENERATION_PROMPT = 'professional person';

function trimmed(params: URLSearchParams, name: string): string | null {
  const value = params.get(name)?.trim();
  return value ? value : null;
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
  const invalid = (error: string = MESSAGES.invalidPaymentType): ParsedPayment => ({
    type,
    error,
  });

  switch (type) {
    case 'training': {
      const quantity = trimmed(params, 'quantity');
      const price = trimmed(params, 'price');
      if (quantity !== null || price !== null) {
        if (quantity === null || price === null || !/^\d+$/.test(quantity)) return invalid();
        const pack = findTrainingPack(Number(quantity));
        // The price in the address must be the pack's own: what is shown is what is charged.
        if (!pack || dollarsToCents(price) !== pack.price_cents) return invalid();
        return { type, order: { kind: 'training-pack', pack } };
      }
      const selected = context.selectedPlan;
      const plan = selected ? findPlan(selected.planId) : undefined;
      if (selected && plan) return { type, order: { kind: 'training-plan', plan, selected } };
      const single = findTrainingPack(1);
      return single ? { type, order: { kind: 'training-slot', pack: single } } : invalid();
    }
    case 'upgrade': {
      const target = context.selectedPlan ? findPlan(context.selectedPlan.planId) : undefined;
      if (!target) return invalid(MESSAGES.noTargetPlan);
      const from = trimmed(params, 'from') ?? context.currentPlan ?? 'free';
      const priceCents = findUpgradeOffer(target.id)?.price_cents ?? target.price_cents;
      return { type, order: { kind: 'upgrade', plan: target, from, priceCents } };
    }
    case 'credits': {
      const packId = trimmed(params, 'pack');
      const pack = packId ? findCreditPackage(packId) : undefined;
      if (!pack) return invalid(MESSAGES.invalidCreditPack);
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

export function paymentHeading(type: string): string {
  if (type === 'training' || type === 'upgrade') return 'Complete Training Payment';
  if (type === 'credits') return 'Purchase Credits';
  return 'Complete Your Order';
}

/** A stable key per order, so one visit creates one payment intent. */
export function orderKey(order: PaymentOrder): string {
  switch (order.kind) {
    case 'training-plan':
      return `training-plan:${order.plan.id}`;
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
