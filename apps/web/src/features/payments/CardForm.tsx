import { MESSAGES } from '@studioshot/contracts/messages';
import { useState, type FormEvent } from 'react';
import { Spinner } from '../../components/PageState';
import { FormError, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import {
  CARD_CVC_MAX_LENGTH,
  CARD_EXPIRY_MAX_LENGTH,
  CARD_NUMBER_MAX_LENGTH,
  CARD_PROCESSING_MS,
  EMPTY_CARD,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  isCardComplete,
  type CardDetails,
} from './card';
import { formatDollars } from './catalogue';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface CardFormProps {
  /** What the button charges, in cents. */
  amountCents: number;
  /** Shows the 'Test Mode Active' notice with the test cards. */
  testMode: boolean;
  /** Takes the money; rejects with the card's problem (e.g. 'Your card was declined.'). */
  charge: (card: CardDetails) => Promise<void>;
  /** The success handler, called once the card went through; its error is shown here. */
  onSuccess: () => Promise<void>;
  /** 'Processing Secure Payment...' stays at least this long. */
  minProcessingMs?: number;
}

function LockIcon({ className = 'size-4' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="currentColor">
      <path
        fillRule="evenodd"
        d="M10 1.5a4 4 0 0 0-4 4V8H5a2 2 0 0 0-2 2v6.5a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2h-1V5.5a4 4 0 0 0-4-4ZM12 8V5.5a2 2 0 1 0-4 0V8h4Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

/** The card form (product spec 4 and 5): submit stays disabled until the card is complete. */
export function CardForm({
  amountCents,
  testMode,
  charge,
  onSuccess,
  minProcessingMs = CARD_PROCESSING_MS,
}: CardFormProps) {
  const [card, setCard] = useState<CardDetails>(EMPTY_CARD);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const complete = isCardComplete(card);
  const touched = Object.values(card).some((value) => value.length > 0);

  const update = (field: keyof CardDetails, value: string) => {
    setCard((current) => ({ ...current, [field]: value }));
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (processing) return;
    if (!complete) {
      setError(MESSAGES.cardIncomplete);
      return;
    }
    setError(null);
    setProcessing(true);
    // The processing state lasts at least the minimum, declines included: no flash of a label.
    const [charged] = await Promise.allSettled([charge(card), wait(minProcessingMs)]);
    if (charged.status === 'rejected') {
      setError(errorMessage(charged.reason, MESSAGES.confirmFailed));
      setProcessing(false);
      return;
    }
    try {
      await onSuccess();
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message ? failure.message : MESSAGES.confirmFailed,
      );
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Card details">
      {testMode && (
        <div
          role="note"
          className="mb-5 rounded-xl border border-accent-200 bg-accent-50 px-4 py-3 text-sm text-stone-700"
        >
          <p className="font-semibold text-accent-800">Test Mode Active</p>
          <p className="mt-1">
            No real money is taken. Pay with{' '}
            <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span>, any future
            date and any CVC;{' '}
            <span className="font-mono whitespace-nowrap">4000 0000 0000 0002</span> is declined.
          </p>
        </div>
      )}
      <fieldset disabled={processing} className="space-y-4">
        <legend className="sr-only">Card details</legend>
        <TextField
          label="Name on card"
          autoComplete="cc-name"
          data-autofocus
          value={card.name}
          onChange={(event) => update('name', event.target.value)}
          placeholder="Ada Lovelace"
        />
        <TextField
          label="Card number"
          autoComplete="cc-number"
          inputMode="numeric"
          maxLength={CARD_NUMBER_MAX_LENGTH}
          value={card.number}
          onChange={(event) => update('number', formatCardNumber(event.target.value))}
          placeholder="1234 5678 9012 3456"
          className="[&_input]:font-mono"
        />
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label="Expiry (MM/YY)"
            autoComplete="cc-exp"
            inputMode="numeric"
            maxLength={CARD_EXPIRY_MAX_LENGTH}
            value={card.expiry}
            onChange={(event) => update('expiry', formatExpiry(event.target.value))}
            placeholder="MM/YY"
            className="[&_input]:font-mono"
          />
          <TextField
            label="CVC"
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={CARD_CVC_MAX_LENGTH}
            value={card.cvc}
            onChange={(event) => update('cvc', formatCvc(event.target.value))}
            placeholder="123"
            className="[&_input]:font-mono"
          />
        </div>
      </fieldset>

      <div className="mt-5 space-y-3" aria-live="polite">
        <FormError message={error} />
        {!error && touched && !complete && (
          <p className="text-sm text-stone-500">{MESSAGES.cardIncomplete}</p>
        )}
      </div>

      <button
        type="submit"
        disabled={!complete || processing}
        className={`${buttonClass('primary', 'lg')} mt-5 w-full`}
      >
        {processing ? <Spinner className="size-4" /> : <LockIcon />}
        {processing ? 'Processing Secure Payment...' : `Pay ${formatDollars(amountCents)}`}
      </button>
      <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-500">
        <LockIcon className="size-3.5" /> Secure payment. Card details are never stored.
      </p>
    </form>
  );
}
