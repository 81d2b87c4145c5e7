/** Card form rules (product spec, section 5) and the simulated card step's timing (section 9). */

/** 'Processing Secure Payment...' stays up at least this long (card simulation 2 s). */
export const CARD_PROCESSING_MS = 2000;

export const CARD_NUMBER_MAX_LENGTH = 19;
export const CARD_EXPIRY_MAX_LENGTH = 5;
export const CARD_CVC_MAX_LENGTH = 4;

const NUMBER_MIN_LENGTH = 16;
const EXPIRY_MIN_LENGTH = 5;
const CVC_MIN_LENGTH = 3;

export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export const EMPTY_CARD: CardDetails = { number: '', expiry: '', cvc: '', name: '' };

/** Digits in groups of 4, at most 19 characters ("4242 4242 4242 4242"). */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 16);
  return (digits.match(/.{1,4}/g) ?? []).join(' ').slice(0, CARD_NUMBER_MAX_LENGTH);
}

/** MM/YY from digits only, at most 5 characters; the slash appears once the month is typed. */
export function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`.slice(0, CARD_EXPIRY_MAX_LENGTH);
}

/** Digits only, at most 4. */
export function formatCvc(input: string): string {
  return input.replace(/\D/g, '').slice(0, CARD_CVC_MAX_LENGTH);
}

/** Complete when number >= 16 characters, expiry >= 5, cvc >= 3 and a name is given. */
export function isCardComplete(card: CardDetails): boolean {
  return (
    card.number.length >= NUMBER_MIN_LENGTH &&
    card.expiry.length >= EXPIRY_MIN_LENGTH &&
    card.cvc.length >= CVC_MIN_LENGTH &&
    card.name.trim().length > 0
  );
}
