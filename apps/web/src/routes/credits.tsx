import { MESSAGES } from '@studioshot/contracts';
import { useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { CheckoutForm } from '../features/payments/CheckoutForm';
import {
  CREDIT_LIST_PRICE_CENTS,
  CURRENCY,
  CREDIT_PACKAGES,
  creditsWithHeadshots,
  formatDollars,
  IMAGES_PER_GENERATION,
  pricePerCredit,
  type CreditPackage,
} from '../features/payments/catalogue';
import { useProfile } from '../features/auth/use-profile';
import { refreshProfile, usePricing } from '../features/payments/hooks';
import { ArrowLeftIcon, SolidCheckIcon } from '../components/icons';
import { useIntentOnPay } from '../features/payments/intent-on-pay';
import { Modal } from '../components/Modal';
import {
  confirmCreditPackage,
  createCreditPackage,
  fetchPricing,
  type PaymentIntentResponse,
} from '../features/payments/payments-api';
import { isSessionExpired } from '../lib/api-client';
import { bestName } from '../lib/display-name';
import { queryClient } from '../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../lib/storage';
import { toast } from '../lib/toast';
import { paymentKeys } from '../features/payments/query-keys';

/** The most a package saves per credit against the smallest one, in whole percent (rounded down). */
const MOST_SAVED_PERCENT = Math.floor(
  Math.max(
    ...CREDIT_PACKAGES.map(
      (pack) => (1 - pack.price_cents / pack.credits / CREDIT_LIST_PRICE_CENTS) * 100,
    ),
  ),
);

const REASONS = [
  {
    title: 'Pay less per headshot',
    body: `Larger packages cost less per credit: save up to ${MOST_SAVED_PERCENT}% compared with buying small.`,
  },
  {
    title: 'Credits never expire',
    body: 'Buy once and use your credits whenever you need fresh headshots, next week or next year.',
  },
  {
    title: 'Every style included',
    body: 'Spend credits on any of the 60 studio styles, with your own trained model.',
  },
  {
    title: 'No subscription needed',
    body: 'Credit packages are one-off purchases. No renewals, no surprises.',
  },
];

const FAQ = [
  {
    q: 'Do credits expire?',
    a: 'No. Credits never expire, so you can use them whenever you like.',
  },
  {
    q: 'Can I buy more credits later?',
    a: 'Yes. You can buy more credits at any time, and they are added to your current balance.',
  },
  {
    q: 'What does one credit get me?',
    a: `Each credit runs one generation, which makes ${IMAGES_PER_GENERATION} headshots of 1024x1024 to choose from.`,
  },
  {
    q: 'Are there any hidden fees?',
    a: 'No hidden fees. The price on the package is the price you pay.',
  },
];

interface Checkout {
  pack: CreditPackage;
  testMode: boolean;
  /** Stripe mode's public key for the card form. */
  publishableKey?: string;
}

function PackageCard({
  pack,
  busy,
  disabled,
  onBuy,
}: {
  pack: CreditPackage;
  busy: boolean;
  disabled: boolean;
  onBuy: () => void;
}) {
  return (
    <article
      aria-labelledby={`pack-${pack.id}`}
      className={`${cardClass} relative flex flex-col p-6 ${pack.popular ? 'border-accent-300 ring-1 ring-accent-200' : ''}`}
    >
      <div className={`${pack.badge ? 'flex' : 'hidden sm:flex'} min-h-7 items-center`}>
        {pack.badge && (
          <span
            className={`rounded-full px-3 py-1 text-xs font-semibold tracking-wide whitespace-nowrap ${
              pack.popular ? 'bg-accent-600 text-white' : 'bg-stone-900 text-white'
            }`}
          >
            {pack.badge}
          </span>
        )}
      </div>
      <h2 id={`pack-${pack.id}`} className="mt-3 font-display text-xl font-semibold text-stone-950">
        {pack.name}
      </h2>
      <p className="flex h-6 items-center gap-2 text-sm text-stone-600">
        <span>{creditsWithHeadshots(pack.credits)}</span>
        {pack.savings && (
          <span className="rounded-full bg-accent-100 px-2 text-xs leading-5 font-semibold whitespace-nowrap text-accent-800">
            {pack.savings}
          </span>
        )}
      </p>
      <p className="mt-4 flex flex-wrap items-baseline gap-x-2">
        <span className="font-display text-3xl font-semibold tracking-tight text-stone-950">
          {formatDollars(pack.price_cents)}
        </span>
        {pack.original_price_cents !== null && (
          <span className="text-stone-500 line-through">
            <span className="sr-only">was </span>
            {formatDollars(pack.original_price_cents)}
          </span>
        )}
      </p>
      <p className="mt-1 text-sm font-medium text-accent-700">${pricePerCredit(pack)} per credit</p>
      <ul className="mt-5 flex-1 space-y-2 text-sm text-stone-700">
        {/* The count is the line under the name; the list says what else comes with it. */}
        {pack.features
          .filter((feature) => feature !== creditsWithHeadshots(pack.credits))
          .map((feature) => (
            <li key={feature} className="flex gap-2">
              <SolidCheckIcon className="mt-0.5 size-4 shrink-0 text-accent-600" />
              <span>{feature}</span>
            </li>
          ))}
      </ul>
      <button
        type="button"
        onClick={onBuy}
        disabled={disabled}
        aria-describedby={`pack-${pack.id}`}
        className={`${buttonClass(pack.popular ? 'primary' : 'secondary')} mt-6 w-full`}
      >
        {busy && <Spinner className="size-4" />}
        {busy ? 'Processing...' : 'Buy Now'}
      </button>
    </article>
  );
}

/** The checkout of one package: the catalogue's price, and an intent made only on Pay. */
function PackCheckout({
  checkout,
  unconfirmed,
  onPaid,
}: {
  checkout: Checkout;
  /** Paid before but not confirmed: paid again is this one, never a second charge. */
  unconfirmed: PaymentIntentResponse | null;
  onPaid: (intent: PaymentIntentResponse) => Promise<void>;
}) {
  const { pack } = checkout;
  const obtain = useIntentOnPay((key) => createCreditPackage(pack.id, key), {
    existing: unconfirmed,
  });
  return (
    <>
      <div className="mb-5 flex items-center justify-between rounded-xl bg-stone-50 px-4 py-3 text-sm">
        <span className="text-stone-700">
          {creditsWithHeadshots(pack.credits)} · ${pricePerCredit(pack)} per credit
        </span>
        <span className="font-semibold text-stone-950">{formatDollars(pack.price_cents)}</span>
      </div>
      <CheckoutForm
        amountCents={pack.price_cents}
        currency={CURRENCY}
        mode="payment"
        obtainIntent={obtain}
        createdIntent={unconfirmed}
        pricing={{
          test_mode: checkout.testMode,
          stripe_publishable_key: checkout.publishableKey,
        }}
        // A bank's own 3-D Secure page returns to the payment page, which resumes this intent.
        returnUrl={`${window.location.origin}/payment?type=credits&pack=${encodeURIComponent(pack.id)}`}
        onSuccess={async () => onPaid(await obtain())}
      />
    </>
  );
}

export function Component() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const profile = useProfile();
  const pricing = usePricing();
  const [busyPack, setBusyPack] = useState<string | null>(null);
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  // Intents whose card went through but whose confirmation failed: buying the same package
  // again finishes that payment instead of charging a second time.
  const unconfirmed = useRef(new Map<string, PaymentIntentResponse>());

  const account = profile.data ?? user;
  const balance = account?.credits_balance ?? 0;
  const packages = pricing.data?.onetime_packages ?? CREDIT_PACKAGES;

  const back = () => {
    // The first page of the visit has nothing to go back to.
    if (location.key === 'default') void navigate('/dashboard');
    else void navigate(-1);
  };

  const failed = () => toast.error(MESSAGES.purchaseFailed);

  const buy = async (pack: CreditPackage) => {
    if (status !== 'authenticated' || !appStorage.getItem(STORAGE_KEYS.accessToken)) {
      void navigate('/auth');
      return;
    }
    setBusyPack(pack.id);
    try {
      // Nothing is created yet: the card form's Pay makes the intent.
      const catalogue = await queryClient.ensureQueryData({
        queryKey: paymentKeys.pricing(),
        queryFn: fetchPricing,
      });
      setCheckout({
        pack,
        testMode: catalogue.test_mode,
        publishableKey: catalogue.stripe_publishable_key,
      });
    } catch (error) {
      // An ended session is already on its way to /auth.
      if (!isSessionExpired(error)) failed();
      setBusyPack(null);
    }
  };

  const closeCheckout = () => {
    setCheckout(null);
    setBusyPack(null);
  };

  const confirmPurchase = async (current: Checkout, intent: PaymentIntentResponse) => {
    let added: number;
    let newBalance: number;
    unconfirmed.current.set(current.pack.id, intent);
    try {
      const answer = await confirmCreditPackage(intent.payment_intent_id);
      added = answer.credits_added;
      newBalance = answer.new_credits_balance;
    } catch {
      failed();
      throw new Error(MESSAGES.purchaseFailed);
    }
    unconfirmed.current.delete(current.pack.id);
    await refreshProfile();
    toast.success(
      `Purchase successful! ${added} credits have been added. Your balance is now ${newBalance} credits.`,
    );
    setCheckout(null);
    setBusyPack(null);
    await navigate('/generate-trained');
  };

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Credits · Studioshot</title>
      <button type="button" onClick={back} className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> Back
      </button>

      <div className="mt-4 flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Credits
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            Buy Credits
          </h1>
          <p className="mt-2 break-words text-stone-600">
            Signed in as <span className="font-medium text-stone-900">{bestName(account)}</span>
          </p>
          <p className="mt-1 text-stone-600">
            Each credit runs one generation of {IMAGES_PER_GENERATION} headshots. Credits never
            expire.
          </p>
        </div>
        <div
          className={`${cardClass} flex shrink-0 items-center gap-5 px-5 py-4`}
          aria-live="polite"
        >
          <div>
            <p className="text-xs font-medium tracking-wide text-stone-500 uppercase">
              Current balance
            </p>
            <p className="font-display text-3xl font-semibold text-stone-950">
              {balance}
              <span className="ml-1.5 font-sans text-base font-normal text-stone-600">
                {balance === 1 ? 'credit' : 'credits'} remaining
              </span>
            </p>
          </div>
        </div>
      </div>

      <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {packages.map((pack) => (
          <PackageCard
            key={pack.id}
            pack={pack}
            busy={busyPack === pack.id}
            disabled={busyPack !== null}
            onBuy={() => void buy(pack)}
          />
        ))}
      </div>

      <section aria-labelledby="why-heading" className="mt-16">
        <h2
          id="why-heading"
          className="text-center font-display text-2xl font-semibold text-stone-950 sm:text-3xl"
        >
          Why Choose Credit Packages
        </h2>
        <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {REASONS.map((reason) => (
            <div key={reason.title} className="rounded-2xl bg-white/60 p-5 ring-1 ring-stone-200">
              <h3 className="font-medium text-stone-950">{reason.title}</h3>
              <p className="mt-1.5 text-sm text-stone-600">{reason.body}</p>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="mx-auto mt-16 max-w-3xl">
        <h2
          id="faq-heading"
          className="text-center font-display text-2xl font-semibold text-stone-950 sm:text-3xl"
        >
          Frequently Asked Questions
        </h2>
        <div className="mt-6 divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white">
          {FAQ.map((item) => (
            <details key={item.q} className="group px-5 py-4">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-stone-900">
                {item.q}
                <span
                  aria-hidden="true"
                  className="text-xl leading-none text-stone-400 transition-transform group-open:rotate-45"
                >
                  +
                </span>
              </summary>
              <p className="mt-2 text-sm text-stone-600">{item.a}</p>
            </details>
          ))}
        </div>
      </section>

      <Modal
        open={checkout !== null}
        onClose={closeCheckout}
        eyebrow="Secure checkout"
        title={checkout ? `Buy the ${checkout.pack.name}` : 'Checkout'}
      >
        {checkout && (
          <PackCheckout
            key={checkout.pack.id}
            checkout={checkout}
            unconfirmed={unconfirmed.current.get(checkout.pack.id) ?? null}
            onPaid={(intent) => confirmPurchase(checkout, intent)}
          />
        )}
      </Modal>
    </section>
  );
}
