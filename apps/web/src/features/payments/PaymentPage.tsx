import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowLeftIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui';
import type { SessionUser } from '../auth/session-store';
import type { PaymentSuccess } from './checkout';
import {
  Problem,
  RecoveryLink,
  ResumedCheckout,
  NewCheckout,
  SuccessPanel,
  useResumedIntent,
} from './CheckoutSteps';
import { readSelectedPlan } from './client-storage';
import {
  BILLING_PARAM,
  checkoutWording,
  orderFromIntent,
  orderKey,
  parsePaymentParams,
  paymentBackTarget,
  paymentRecovery,
  readBillingCycle,
} from './payment-params';

const BACK_LABELS: Record<string, string> = {
  '/pricing': 'Back to pricing',
  '/generate': 'Back to generate',
  '/dashboard': 'Back to dashboard',
};

/**
 * /payment for a signed-in buyer (docs/spec/screens.md#payment): the order from the address
 * (or the intent it names), priced, paid, then confirmed, and on to what was bought.
 */
export function PaymentPage({
  params,
  user,
  onIntentCreated,
}: {
  params: URLSearchParams;
  user: SessionUser;
  /** Pay made an intent: the page names it in its address, so a reload resumes it. */
  onIntentCreated: (paymentIntentId: string) => void;
}) {
  const navigate = useNavigate();
  // Read once per visit: a finished purchase clears it, the page must not change its order.
  const [selectedPlan] = useState(readSelectedPlan);
  const [success, setSuccess] = useState<PaymentSuccess | null>(null);
  // The intent this visit created: naming it in the address is not a resume.
  const createdHere = useRef<string | null>(null);
  const named = params.get('payment_intent')?.trim() || null;
  const resumeId = named !== null && named !== createdHere.current ? named : null;
  const resumed = useResumedIntent(resumeId);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => void navigate(success.redirectTo), success.delayMs);
    return () => clearTimeout(timer);
  }, [success, navigate]);

  const onCreated = (paymentIntentId: string) => {
    if (createdHere.current === paymentIntentId) return;
    createdHere.current = paymentIntentId;
    onIntentCreated(paymentIntentId);
  };

  const parsed = resumeId
    ? resumed.data
      ? orderFromIntent(resumed.data, params, { userId: user.id ?? '' })
      : null
    : parsePaymentParams(params, { selectedPlan, currentPlan: user.plan_type ?? null });
  const type = params.get('type')?.trim() || parsed?.type || 'generation';
  const back = paymentBackTarget(type);
  const wording = checkoutWording(parsed && parsed.error === undefined ? parsed.order : null, type);
  // Back to the prices the plan was chosen from: the annual ones when it is billed yearly.
  const backTo =
    back === '/pricing' && type === 'training' && readBillingCycle(params) === 'annual'
      ? `/pricing?${BILLING_PARAM}=annual`
      : back;

  let body: ReactNode;
  if (success) body = <SuccessPanel success={success} />;
  else if (resumeId)
    body = (
      <ResumedCheckout
        intent={resumed}
        params={params}
        userId={user.id ?? ''}
        onPaid={setSuccess}
      />
    );
  else if (parsed?.error !== undefined)
    body = (
      <Problem message={parsed.error}>
        <RecoveryLink recovery={parsed.recovery ?? paymentRecovery(type)} />
      </Problem>
    );
  else if (parsed)
    body = (
      <NewCheckout
        key={orderKey(parsed.order)}
        order={parsed.order}
        notice={parsed.notice}
        recovery={paymentRecovery(type)}
        onCreated={onCreated}
        onPaid={setSuccess}
      />
    );

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <Link to={backTo} className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> {BACK_LABELS[back] ?? 'Back'}
      </Link>
      <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        {wording.heading}
      </h1>
      <p className="mt-2 text-stone-600">{wording.lead}</p>
      {body}
    </section>
  );
}
