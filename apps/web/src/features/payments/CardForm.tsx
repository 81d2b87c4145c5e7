import { MESSAGES } from '@studioshot/contracts/messages';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Spinner } from '../../components/PageState';
import { FormError, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import {
  CARD_CVC_MAX_LENGTH,
  CARD_EXPIRY_MAX_LENGTH,
  CARD_FIELD_LABELS,
  CARD_FIELDS,
  CARD_PROCESSING_MS,
  cardBrand,
  cardNumberMaxLength,
  checkCard,
  EMPTY_CARD,
  fieldsToFix,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  type CardDetails,
  type CardField,
} from './card';
import { formatDollars } from './catalogue';
import { LockIcon } from '../../components/icons';

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

const NOT_TOUCHED: Record<CardField, boolean> = {
  name: false,
  number: false,
  expiry: false,
  cvc: false,
};

/** 'name on card, card number and CVC'. */
function listOf(fields: CardField[]): string {
  const labels = fields.map((field) => CARD_FIELD_LABELS[field]);
  return labels.length < 2
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * The test-mode card form (docs/spec/screens.md#4-states-and-transitions,
 * docs/spec/screens.md#5-validation). Each field is checked as it is typed: a field
 * shows its problem once it has been left (or at once when no more typing can fix it, such as
 * month 13), marked aria-invalid and described by the message. Pay reads as disabled until the card
 * is complete and says what is missing; Enter in a field pays once it is complete.
 */
export function CardForm({
  amountCents,
  testMode,
  charge,
  onSuccess,
  minProcessingMs = CARD_PROCESSING_MS,
}: CardFormProps) {
  const hintId = useId();
  const [card, setCard] = useState<CardDetails>(EMPTY_CARD);
  const [touched, setTouched] = useState(NOT_TOUCHED);
  const [showAll, setShowAll] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checks = checkCard(card);
  const toFix = fieldsToFix(checks);
  const complete = toFix.length === 0;
  const started = CARD_FIELDS.some((field) => card[field].length > 0);
  const brand = cardBrand(card.number);

  const fieldError = (field: CardField): string | undefined => {
    const check = checks[field];
    if (!check.message) return undefined;
    return showAll || touched[field] || check.definite ? check.message : undefined;
  };

  const update = (field: CardField, value: string) => {
    setCard((current) => ({ ...current, [field]: value }));
    setError(null);
  };
  const leave = (field: CardField) => {
    if (card[field].length > 0) setTouched((current) => ({ ...current, [field]: true }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (processing) return;
    if (!complete) {
      setShowAll(true);
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

  // Enter in a field pays when the card is complete; otherwise it shows what is still missing.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    event.preventDefault();
    if (complete) event.currentTarget.requestSubmit();
    else setShowAll(true);
  };

  const cvcName = brand?.code.name ?? 'CVC';
  return (
    <form
      onSubmit={(event) => void submit(event)}
      onKeyDown={onKeyDown}
      noValidate
      aria-label="Card details"
    >
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
          onBlur={() => leave('name')}
          error={fieldError('name')}
          placeholder="Ada Lovelace"
        />
        <TextField
          label="Card number"
          autoComplete="cc-number"
          inputMode="numeric"
          maxLength={cardNumberMaxLength(card.number)}
          value={card.number}
          onChange={(event) => update('number', formatCardNumber(event.target.value))}
          onBlur={() => leave('number')}
          error={fieldError('number')}
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
            onBlur={() => leave('expiry')}
            error={fieldError('expiry')}
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
            onBlur={() => leave('cvc')}
            error={fieldError('cvc')}
            placeholder={cvcName === 'CVC' || cvcName === 'CVV' ? '123' : '1234'}
            className="[&_input]:font-mono"
          />
        </div>
      </fieldset>

      <div className="mt-5 space-y-3" aria-live="polite">
        <FormError message={error} />
      </div>

      {/* Until the card is complete Pay only looks disabled: it keeps its place in the Tab order
          (Tab does not jump past it to the footer), and pressing it shows what is missing. */}
      <button
        type="submit"
        disabled={processing}
        aria-disabled={!complete || undefined}
        aria-describedby={!complete && !processing ? hintId : undefined}
        className={`${buttonClass('primary', 'lg')} mt-5 w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60`}
      >
        {processing ? <Spinner className="size-4" /> : <LockIcon />}
        {processing ? 'Processing Secure Payment...' : `Pay ${formatDollars(amountCents)}`}
      </button>
      {!complete && !processing && (
        // Why Pay is disabled, in words: what is still missing or wrong.
        <p id={hintId} className="mt-2 text-center text-sm text-stone-600">
          {started
            ? `${MESSAGES.cardIncomplete}: ${listOf(toFix)}.`
            : 'Enter your card details to pay.'}
        </p>
      )}
      <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-500">
        <LockIcon className="size-3.5" /> Secure payment. Card details are never stored.
      </p>
    </form>
  );
}
