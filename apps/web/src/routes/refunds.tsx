import { REFUND_WINDOW_DAYS } from '@studioshot/contracts';
import { Link } from 'react-router';
import { buttonClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';

/** The 30-day money-back guarantee: what it covers, what a refund takes back, and how to claim. */
export function Component() {
  const { status } = useSession();
  const billing = status === 'authenticated' ? '/billing' : '/auth?redirect=/billing';

  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Money-back guarantee · Studioshot</title>
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
        Money-back guarantee
      </p>
      <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        {REFUND_WINDOW_DAYS} days to change your mind
      </h1>
      <p className="mt-3 text-lg text-stone-600">
        Any payment you made in the last {REFUND_WINDOW_DAYS} days can be refunded in full, whatever
        it bought. You ask for it yourself, in two clicks; no e-mail and no one to convince.
      </p>

      <section className="mt-10">
        <h2 className="font-display text-2xl font-semibold text-stone-950">How to claim it</h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-stone-700">
          <li>Sign in and open Billing (in the account menu, or from your dashboard).</li>
          <li>
            Next to the payment, choose <strong>Request a refund</strong>. It is there for{' '}
            {REFUND_WINDOW_DAYS} days after the payment.
          </li>
          <li>Tell us why, from a short list, and confirm.</li>
        </ol>
        <Link to={billing} className={`${buttonClass('primary')} mt-5`}>
          Go to Billing
        </Link>
      </section>

      <section className="mt-10">
        <h2 className="font-display text-2xl font-semibold text-stone-950">What happens then</h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-stone-700">
          <li>
            The whole amount goes back to the card that paid it. Your bank shows it within 5 to 10
            business days.
          </li>
          <li>
            Credits the payment gave you that are not spent yet are taken back; credits already
            spent are not charged for.
          </li>
          <li>
            A plan the payment paid for ends at once and is not charged again. Model trainings it
            bought and you have not used go.
          </li>
          <li>Headshots already made stay yours to download.</li>
          <li>The refund and your reason are shown on the payment&apos;s receipt.</li>
        </ul>
      </section>

      <section className="mt-10">
        <h2 className="font-display text-2xl font-semibold text-stone-950">When it cannot</h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-stone-700">
          <li>A payment made more than {REFUND_WINDOW_DAYS} days ago.</li>
          <li>A payment already refunded: each payment is refunded once.</li>
          <li>
            When the card network refuses the refund (a closed card, a disputed charge): we tell you
            its reason as we get it.
          </li>
        </ul>
      </section>
    </article>
  );
}
