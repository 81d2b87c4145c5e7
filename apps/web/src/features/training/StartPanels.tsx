import { MESSAGES } from '@studioshot/contracts/messages';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui';
import { NEED_UPGRADE_STATE } from '../payments/eligibility';
import { TrainingLimitModal } from '../payments/TrainingLimitModal';

/** The frame of what /training/start shows instead of the name form. */
export function Panel({
  title,
  tone = 'neutral',
  children,
  actions,
}: {
  title: string;
  tone?: 'neutral' | 'warning' | 'error';
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const tones = {
    neutral: 'border-stone-200 bg-white',
    warning: 'border-amber-200 bg-amber-50/70',
    error: 'border-red-200 bg-red-50',
  } as const;
  return (
    <section
      role={tone === 'error' ? 'alert' : 'status'}
      aria-label={title}
      className={`rounded-2xl border p-6 shadow-sm sm:p-8 ${tones[tone]}`}
    >
      <h2 className="font-display text-xl font-semibold text-stone-950">{title}</h2>
      {children && <div className="mt-2 text-stone-700">{children}</div>}
      {actions && <div className="mt-5 flex flex-col gap-3 sm:flex-row">{actions}</div>}
    </section>
  );
}

/** No trainings on the plan: choose one first. */
export function PlanPanel() {
  return (
    <Panel
      title="Choose a plan to train"
      tone="warning"
      actions={
        <Link to="/pricing" className={buttonClass('primary')}>
          View Plans
        </Link>
      }
    >
      {MESSAGES.planRequired}
    </Panel>
  );
}

/** Limit reached: the spec's message, the upgrade path and extra trainings. */
export function LimitPanel({
  plan,
  limit,
  trained,
}: {
  plan: string | null | undefined;
  limit: number;
  trained: number;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Panel
        title={MESSAGES.trainingLimit}
        tone="warning"
        actions={
          <>
            {plan !== 'premium' && (
              <Link to="/pricing" state={NEED_UPGRADE_STATE} className={buttonClass('primary')}>
                Upgrade Plan
              </Link>
            )}
            <button
              type="button"
              onClick={() => setOpen(true)}
              className={buttonClass(plan === 'premium' ? 'primary' : 'secondary')}
            >
              Buy More Trainings
            </button>
            <Link to="/dashboard" className={buttonClass('ghost')}>
              Go to Dashboard
            </Link>
          </>
        }
      >
        You have trained {trained} of {limit} {limit === 1 ? 'model' : 'models'} on your plan. Your
        photos stay uploaded: add a training or upgrade, then start this one.
      </Panel>
      <TrainingLimitModal
        open={open}
        onClose={() => setOpen(false)}
        currentPlan={plan}
        trainingLimit={limit}
        modelsTrained={trained}
      />
    </>
  );
}
