import { Link } from 'react-router';
import { cardClass } from '../../components/ui';
import { customPromptApplies } from '@studioshot/contracts/custom-prompt';
import type { UpgradeProration } from './billing-api';
import { cycleFigures, monthsFreeText, perPeriod } from './billing-cycle';
import {
  creditsWithHeadshots,
  formatDate,
  formatDollars,
  planLabel,
  pricePerCredit,
  type BillingCycle,
  type Plan,
} from './catalogue';
import { SolidCheckIcon } from '../../components/icons';
import type { PaymentOrder } from './payment-params';

interface Summary {
  title: string;
  lines: string[];
  badge?: string | null;
  /** Shown after the total, e.g. '/month'. */
  per?: string;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a plan on this billing cycle unlocks beyond its models and credits (the custom prompt). */
function cycleExtras(plan: Plan, cycle: BillingCycle): string[] {
  return customPromptApplies({ plan_type: plan.id, subscription_interval: cycle })
    ? ['Custom prompts on the Generate page']
    : [];
}

/** A prorated upgrade's first lines: from which plan, the models, and this month's credits. */
function upgradeFirstLines(
  plan: Plan,
  proration: UpgradeProration,
  noExtraCredits: string,
): string[] {
  return [
    `From your ${planLabel(proration.from_plan)} plan, effective immediately`,
    `${plural(plan.training_limit, 'personal AI model')}`,
    proration.credits > 0
      ? `${plural(proration.credits, 'extra credit')} now, for the rest of this month`
      : noExtraCredits,
  ];
}

function planLines(order: Extract<PaymentOrder, { kind: 'training-plan' }>): string[] {
  const { plan, cycle } = order;
  if (cycle === 'monthly') {
    return [
      'Monthly subscription, cancel any time',
      `${plural(plan.training_limit, 'personal AI model')}`,
      `${creditsWithHeadshots(plan.credits)} every month`,
    ];
  }
  const figures = cycleFigures(plan.price_cents, cycle);
  return [
    'Annual subscription, renews yearly, cancel any time',
    `${formatDollars(figures.perMonthCents)} a month billed yearly: ${monthsFreeText()} (you save ${formatDollars(figures.savedCents)})`,
    `${plural(plan.training_limit, 'personal AI model')}`,
    `${creditsWithHeadshots(plan.credits)} every month, all year`,
    ...cycleExtras(plan, cycle),
  ];
}

function summaryOf(order: PaymentOrder, proration: UpgradeProration | null): Summary {
  switch (order.kind) {
    case 'training-plan':
      return {
        title: `${order.plan.name} plan`,
        lines: planLines(order),
        per: perPeriod(order.cycle),
      };
    case 'training-slot':
      return {
        title: 'Extra model training',
        lines: ['1 additional model training', 'Train a new personal AI model from your photos'],
      };
    case 'training-pack':
      return {
        title: order.pack.quantity === 1 ? 'Extra model training' : 'Training pack',
        lines: [
          `${order.pack.quantity} additional model ${order.pack.quantity === 1 ? 'training' : 'trainings'}`,
          'Train new personal AI models from your photos',
        ],
        badge: order.pack.savings,
      };
    case 'upgrade':
      if (!proration) {
        // Nothing running to prorate: the plan is bought as a new monthly subscription.
        return {
          title: `Upgrade to ${order.plan.name}`,
          lines: [
            `From your ${planLabel(order.from)} plan`,
            `${plural(order.plan.training_limit, 'personal AI model')}`,
            `${creditsWithHeadshots(order.plan.credits)} every month`,
            'Takes effect immediately',
          ],
          per: '/month',
        };
      }
      if (proration.billing_cycle === 'annual') {
        // Billed yearly, credited monthly: the credits follow the month, the charge the year.
        return {
          title: `Upgrade to ${order.plan.name}`,
          lines: [
            ...upgradeFirstLines(order.plan, proration, 'Your monthly credits move up next month'),
            `${creditsWithHeadshots(order.plan.credits)} every month from then on`,
            `Annual billing: your plan renews yearly, next on ${formatDate(proration.period_end)}`,
            ...cycleExtras(order.plan, 'annual'),
          ],
        };
      }
      return {
        title: `Upgrade to ${order.plan.name}`,
        lines: [
          ...upgradeFirstLines(
            order.plan,
            proration,
            'Your monthly credits move up at your next billing date',
          ),
          `Your billing date stays ${formatDate(proration.period_end)}`,
        ],
      };
    case 'credits':
      return {
        title: order.pack.name,
        lines: [
          creditsWithHeadshots(order.pack.credits),
          `$${pricePerCredit(order.pack)} per credit`,
          'Credits never expire',
        ],
        badge: order.pack.savings,
      };
    case 'generation':
      return {
        title: 'Professional headshots',
        lines: ['4 AI headshots at 1024x1024', `Style: ${order.style}`, `Prompt: ${order.prompt}`],
      };
  }
}

/** How an upgrade's amount was reached: what is credited and what is charged. */
export function ProrationBreakdown({ proration }: { proration: UpgradeProration }) {
  const from = planLabel(proration.from_plan);
  const to = planLabel(proration.to_plan);
  const days = proration.remaining_days;
  const per = proration.billing_cycle === 'annual' ? 'year' : 'month';
  return (
    <div className="mt-6 border-t border-stone-200 pt-4">
      <h3 className="text-sm font-semibold text-stone-900">How this is worked out</h3>
      <dl className="mt-3 space-y-2 text-sm text-stone-700">
        <div className="flex justify-between gap-4">
          <dt className="min-w-0">
            {to} for the rest of this period ({days} {days === 1 ? 'day' : 'days'})
          </dt>
          <dd className="shrink-0 tabular-nums">{formatDollars(proration.new_plan_cents)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="min-w-0">Credit for unused {from} time</dt>
          <dd className="shrink-0 text-accent-800 tabular-nums">
            −{formatDollars(proration.credited_cents)}
          </dd>
        </div>
        {proration.minimum_applied && (
          <div className="flex justify-between gap-4">
            <dt className="min-w-0">Raised to the smallest card payment</dt>
            <dd className="shrink-0 tabular-nums">
              +{formatDollars(proration.charged_cents - proration.prorated_cents)}
            </dd>
          </div>
        )}
      </dl>
      <p className="mt-3 text-xs text-stone-500">
        {to} is {formatDollars(proration.to_price_cents)} a {per} and {from}{' '}
        {formatDollars(proration.from_price_cents)}: you pay the difference for the part of the
        period left. From {formatDate(proration.period_end)} you pay{' '}
        {formatDollars(proration.to_price_cents)} a {per}.
      </p>
    </div>
  );
}

export function OrderSummary({
  order,
  amount,
  proration = null,
}: {
  order: PaymentOrder;
  amount: number;
  proration?: UpgradeProration | null;
}) {
  const summary = summaryOf(order, proration);
  return (
    <section aria-labelledby="summary-heading" className={`${cardClass} p-6 sm:p-8`}>
      <h2
        id="summary-heading"
        className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase"
      >
        Order summary
      </h2>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <p className="font-display text-2xl font-semibold text-stone-950">{summary.title}</p>
        {summary.badge && (
          <span className="rounded-full bg-accent-100 px-2.5 py-0.5 text-xs font-semibold text-accent-800">
            {summary.badge}
          </span>
        )}
      </div>
      <ul className="mt-4 space-y-2 text-sm text-stone-700">
        {summary.lines.map((line) => (
          <li key={line} className="flex gap-2 break-words">
            <SolidCheckIcon className="mt-0.5 size-4 shrink-0 text-accent-600" />
            <span className="min-w-0">{line}</span>
          </li>
        ))}
      </ul>
      {order.kind === 'upgrade' && proration && <ProrationBreakdown proration={proration} />}
      <div className="mt-6 flex items-baseline justify-between border-t border-stone-200 pt-4">
        <span className="font-medium text-stone-900">Total due today</span>
        <span className="font-display text-3xl font-semibold text-stone-950">
          {formatDollars(amount)}
          {summary.per && (
            <span className="font-sans text-base font-normal text-stone-500">{summary.per}</span>
          )}
        </span>
      </div>
      <p className="mt-4 text-xs text-stone-500">
        <Link className="underline underline-offset-4 hover:text-stone-950" to="/refunds">
          30-day money-back guarantee
        </Link>
        . No hidden fees.
      </p>
    </section>
  );
}
