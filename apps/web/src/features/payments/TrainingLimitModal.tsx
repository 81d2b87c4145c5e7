import { useNavigate } from 'react-router';
import { buttonClass } from '../../components/ui';
import {
  findTrainingPack,
  formatDollars,
  planLabel,
  PLANS,
  tierRank,
  isPlanType,
  type Plan,
  type TrainingPack,
} from './catalogue';
import { NEED_UPGRADE_STATE } from './eligibility';
import { storeSelectedPlan, storeTrainingPurchaseIntent } from './client-storage';
import { Modal } from '../../components/Modal';

/** The modal's training offers: 1 extra training, and the pack of 3. */
const TRAINING_OFFERS = [1, 3]
  .map((quantity) => findTrainingPack(quantity))
  .filter((pack): pack is TrainingPack => pack !== undefined);

function trainingsLabel(quantity: number): string {
  return `${quantity} model training${quantity === 1 ? '' : 's'}`;
}

/** The plans the modal offers to move up to (the spec's modal: Professional and Premium). */
const UPGRADE_TARGETS = PLANS.filter((plan) => plan.id === 'professional' || plan.id === 'premium');

/**
 * Training-limit modal (product spec: /upload and dashboard): buy extra trainings or upgrade to a
 * higher plan. Every figure is the catalogue's (packages/pricing), the same /pricing shows: the
 * spec's $49 and $99 monthly upgrade prices are overridden by the plans' own. A subscriber's
 * upgrade is prorated on /payment for the rest of the billing period.
 */
export function TrainingLimitModal({
  open,
  onClose,
  currentPlan,
  trainingLimit,
  modelsTrained,
}: {
  open: boolean;
  onClose: () => void;
  currentPlan: string | null | undefined;
  trainingLimit: number;
  modelsTrained: number;
}) {
  const navigate = useNavigate();
  const plan = isPlanType(currentPlan) ? currentPlan : 'free';
  const upgrades = UPGRADE_TARGETS.filter((target) => tierRank(target.id) > tierRank(plan));
  const prorated = plan !== 'free';

  const buyTrainings = (pack: TrainingPack) => {
    storeTrainingPurchaseIntent({ type: 'additional_training', currentPlan: plan });
    onClose();
    void navigate(
      `/payment?type=training&quantity=${pack.quantity}&price=${pack.price_cents / 100}`,
    );
  };

  const upgrade = (target: Plan) => {
    storeSelectedPlan({
      planId: target.id,
      type: 'subscription',
      planName: target.name,
      price: target.price_cents,
      credits: target.credits,
    });
    storeTrainingPurchaseIntent({ type: 'upgrade', currentPlan: plan });
    onClose();
    void navigate(`/payment?type=upgrade&from=${encodeURIComponent(plan)}`);
  };

  const comparePlans = () => {
    onClose();
    void navigate('/pricing', { state: NEED_UPGRADE_STATE });
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      eyebrow="Training limit reached"
      title="Train more models"
      wide
    >
      <p className="text-stone-600">
        You have used {modelsTrained} of {trainingLimit} model{' '}
        {trainingLimit === 1 ? 'training' : 'trainings'} on your {planLabel(plan)} plan. Add
        trainings or upgrade to keep going.
      </p>

      <h3 className="mt-6 text-sm font-semibold tracking-wide text-stone-900">Add trainings</h3>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {TRAINING_OFFERS.map((pack) => (
          <li key={pack.id} className="flex flex-col rounded-xl border border-stone-200 p-4">
            <div className="flex items-start justify-between gap-2">
              <p className="font-medium text-stone-900">
                {pack.quantity === 1 ? 'Extra training' : 'Training pack'}
              </p>
              {pack.savings && (
                <span className="rounded-full bg-accent-100 px-2 py-0.5 text-xs font-semibold text-accent-800">
                  {pack.savings}
                </span>
              )}
            </div>
            <p className="mt-2 font-display text-2xl font-semibold text-stone-950">
              {formatDollars(pack.price_cents, { compact: true })}
            </p>
            <p className="text-sm text-stone-600">{trainingsLabel(pack.quantity)}</p>
            <button
              type="button"
              onClick={() => buyTrainings(pack)}
              className={`${buttonClass('secondary', 'sm')} mt-4`}
              data-autofocus={pack.quantity === 1 || undefined}
            >
              Buy {pack.quantity} {pack.quantity === 1 ? 'Training' : 'Trainings'}
            </button>
          </li>
        ))}
      </ul>

      {upgrades.length > 0 && (
        <>
          <h3 className="mt-6 text-sm font-semibold tracking-wide text-stone-900">
            Upgrade your plan
          </h3>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {upgrades.map((target) => (
              <li
                key={target.id}
                className="flex flex-col rounded-xl border border-accent-200 bg-accent-50/60 p-4"
              >
                <p className="font-medium text-stone-900">{target.name}</p>
                <p className="mt-2 font-display text-2xl font-semibold text-stone-950">
                  {formatDollars(target.price_cents)}
                  <span className="text-base font-normal text-stone-500">/month</span>
                </p>
                <p className="text-sm text-stone-600">
                  {target.training_limit} models, {target.credits} credits a month
                </p>
                <button
                  type="button"
                  onClick={() => upgrade(target)}
                  className={`${buttonClass('primary', 'sm')} mt-4`}
                >
                  Upgrade to {target.name}
                </button>
              </li>
            ))}
          </ul>
          {prorated && (
            <p className="mt-3 text-xs text-stone-500">
              Today you pay only the difference for the rest of your billing period.
            </p>
          )}
        </>
      )}

      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onClose} className={buttonClass('ghost')}>
          Maybe later
        </button>
        <button type="button" onClick={comparePlans} className={buttonClass('secondary')}>
          Compare all plans
        </button>
      </div>
    </Modal>
  );
}
