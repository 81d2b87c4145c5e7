import { MESSAGES, REFUND_REASONS, type RefundReasonId } from '@studioshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { AlertIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { requestRefund, type BillingEntry } from '../payments/billing-api';
import { formatDate, formatDollars, planLabel } from '../payments/catalogue';
import { authKeys } from '../auth/query-keys';
import { billingKeys } from './query-keys';
import { paymentKeys } from '../payments/query-keys';

const PLAN_KINDS = new Set(['subscription', 'upgrade', 'renewal']);

/** What giving this payment back takes with it, in the order the owner weighs it. */
function consequences(entry: BillingEntry): string[] {
  const lines = [
    `${formatDollars(entry.amount_cents)} goes back to the card that paid it, in 5 to 10 business days.`,
  ];
  if (entry.granted.credits > 0)
    lines.push(
      `The credits this payment gave you that are not spent yet go (up to ${entry.granted.credits}).`,
    );
  if (PLAN_KINDS.has(entry.kind))
    lines.push(
      `Your ${entry.granted.plan ? `${planLabel(entry.granted.plan)} plan` : 'plan'} ends now and is not charged again.`,
    );
  if (entry.granted.training_slots > 0)
    lines.push('The model trainings it bought that you have not used go.');
  if (entry.granted.headshots > 0) lines.push('Headshots already made stay yours to download.');
  return lines;
}

/**
 * The 30-day money-back guarantee on one payment: "Request a refund" opens a dialog that says what
 * the refund takes with it and asks why; the server refunds it once, however often it is asked.
 */
export function RefundRequest({ entry }: { entry: BillingEntry }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<RefundReasonId | null>(null);
  const [missingReason, setMissingReason] = useState(false);
  const reasonHintId = useId();
  const refund = useMutation({
    mutationFn: (chosen: RefundReasonId) => requestRefund(entry.id, chosen),
    onSuccess: async (answer) => {
      setOpen(false);
      toast.success(answer.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKeys.history() }),
        queryClient.invalidateQueries({ queryKey: authKeys.profile() }),
        queryClient.invalidateQueries({ queryKey: paymentKeys.subscription() }),
      ]);
    },
  });
  if (!entry.refundable_until) return null;

  const close = () => {
    if (refund.isPending) return;
    setOpen(false);
    setReason(null);
    setMissingReason(false);
    refund.reset();
  };
  const submit = () => {
    if (!reason) {
      setMissingReason(true);
      return;
    }
    refund.mutate(reason);
  };

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="text-sm font-medium text-stone-700 underline underline-offset-4 hover:text-stone-950"
        aria-label={`Request a refund of ${entry.receipt_number}`}
      >
        Request a refund
      </button>
      <Modal
        open={open}
        onClose={close}
        eyebrow="30-day money-back guarantee"
        title="Request a refund"
      >
        <p className="text-stone-700">
          {entry.description}, {formatDollars(entry.amount_cents)}. You can ask until{' '}
          {formatDate(entry.refundable_until)}.
        </p>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-stone-700">
          {consequences(entry).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <form
          className="mt-5"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset aria-describedby={missingReason ? reasonHintId : undefined}>
            <legend className="text-sm font-medium text-stone-900">Why are you asking?</legend>
            <div className="mt-2 space-y-1.5">
              {(Object.keys(REFUND_REASONS) as RefundReasonId[]).map((id, index) => (
                <label key={id} className="flex items-center gap-2.5 text-sm text-stone-800">
                  <input
                    type="radio"
                    name="refund-reason"
                    value={id}
                    checked={reason === id}
                    onChange={() => {
                      setReason(id);
                      setMissingReason(false);
                    }}
                    className="size-4 accent-accent-600"
                    {...(index === 0 ? { 'data-autofocus': true } : {})}
                  />
                  {REFUND_REASONS[id]}
                </label>
              ))}
            </div>
            {missingReason && (
              <p id={reasonHintId} role="alert" className="mt-2 text-sm text-red-700">
                Choose a reason to continue.
              </p>
            )}
          </fieldset>
          {refund.error != null && (
            <p role="alert" className="mt-4 flex items-start gap-2 text-sm text-red-700">
              <AlertIcon className="mt-0.5 size-4 shrink-0" />
              {errorMessage(refund.error, MESSAGES.refundFailed)}
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={close}
              disabled={refund.isPending}
              className={buttonClass('secondary')}
            >
              Keep my purchase
            </button>
            <button type="submit" disabled={refund.isPending} className={buttonClass('primary')}>
              {refund.isPending && <Spinner className="size-4" />}
              Refund {formatDollars(entry.amount_cents)}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
