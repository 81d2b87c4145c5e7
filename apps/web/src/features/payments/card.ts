import cardValidator from 'card-validator';

/**
 * The test-mode card form's rules (product spec, section 5, made field by field): the number by
 * its brand's lengths and the Luhn check digit, the expiry as a real month that has not passed,
 * the CVC by the brand's code length. Braintree's card-validator knows the brands.
 */

/** 'Processing Secure Payment...' stays up at least this long (card simulation 2 s). */
export const CARD_PROCESSING_MS = 2000;

export const CARD_EXPIRY_MAX_LENGTH = 5;
export const CARD_CVC_MAX_LENGTH = 4;

/** Digits of a number whose brand is not known yet. */
const UNKNOWN_BRAND_MAX_DIGITS = 16;
const DEFAULT_GAPS = [4, 8, 12];

export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardField = keyof CardDetails;

/** The fields in the order the form shows them. */
export const CARD_FIELDS: readonly CardField[] = ['name', 'number', 'expiry', 'cvc'];

export const CARD_FIELD_LABELS: Record<CardField, string> = {
  name: 'name on card',
  number: 'card number',
  expiry: 'expiry date',
  cvc: 'CVC',
};

export const EMPTY_CARD: CardDetails = { number: '', expiry: '', cvc: '', name: '' };

export interface CardBrand {
  /** e.g. 'Visa', 'American Express'. */
  name: string;
  lengths: number[];
  gaps: number[];
  code: { name: string; size: number };
}

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * The most digits a brand's number has here: 16 where the brand issues 16-digit cards (the long
 * Visa and Maestro numbers are rare, and the form shows groups of 4 up to 19 characters).
 */
function maxDigitsOf(lengths: number[]): number {
  return lengths.includes(16) ? 16 : Math.max(...lengths);
}

/** The brand the number's first digits name, once they name exactly one. */
export function cardBrand(number: string): CardBrand | null {
  const card = cardValidator.number(digitsOf(number)).card;
  if (!card) return null;
  const max = maxDigitsOf(card.lengths);
  return {
    name: card.niceType,
    lengths: card.lengths.filter((length) => length <= max),
    gaps: card.gaps,
    code: card.code,
  };
}

/** Digits grouped as the brand prints them (4 4 4 4 for Visa, 4 6 5 for Amex). */
export function formatCardNumber(input: string): string {
  const brand = cardBrand(input);
  const maxDigits = brand ? Math.max(...brand.lengths) : UNKNOWN_BRAND_MAX_DIGITS;
  const digits = digitsOf(input).slice(0, maxDigits);
  const gaps = brand?.gaps ?? DEFAULT_GAPS;
  let out = '';
  for (let i = 0; i < digits.length; i += 1) {
    if (gaps.includes(i)) out += ' ';
    out += digits[i];
  }
  return out;
}

/** The longest number the field takes, spaces included. */
export function cardNumberMaxLength(number: string): number {
  const brand = cardBrand(number);
  if (!brand) return UNKNOWN_BRAND_MAX_DIGITS + DEFAULT_GAPS.length;
  const max = Math.max(...brand.lengths);
  return max + brand.gaps.filter((gap) => gap < max).length;
}

/**
 * MM/YY from digits only, at most 5 characters; the slash appears once the month is typed. A
 * first digit of 2 to 9 can only be a month 02 to 09, so it is written that way.
 */
export function formatExpiry(input: string): string {
  const typed = digitsOf(input);
  const digits = (/^[2-9]/.test(typed) ? `0${typed}` : typed).slice(0, 4);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** Digits only, at most 4. */
export function formatCvc(input: string): string {
  return digitsOf(input).slice(0, CARD_CVC_MAX_LENGTH);
}

export interface FieldCheck {
  /** What is wrong with the field, in words; null when it is valid. */
  message: string | null;
  /** Wrong whatever is typed next (a bad month, a number no card has): shown at once. */
  definite: boolean;
}

const ok: FieldCheck = { message: null, definite: false };
const incomplete = (message: string): FieldCheck => ({ message, definite: false });
const wrong = (message: string): FieldCheck => ({ message, definite: true });

export function checkName(name: string): FieldCheck {
  return name.trim() ? ok : incomplete('Enter the name on the card.');
}

export function checkNumber(number: string): FieldCheck {
  const digits = digitsOf(number);
  if (!digits) return incomplete('Enter the card number.');
  const brand = cardBrand(digits);
  const result = cardValidator.number(digits, {
    maxLength: brand ? Math.max(...brand.lengths) : undefined,
  });
  if (result.isValid) return ok;
  if (!result.isPotentiallyValid) {
    return wrong(
      brand && brand.lengths.includes(digits.length)
        ? 'This card number is not valid: check the digits.'
        : 'This is not a valid card number.',
    );
  }
  const needed = brand?.lengths.find((length) => length > digits.length);
  return incomplete(
    needed ? `Enter all ${needed} digits of the card number.` : 'Enter the full card number.',
  );
}

/** `now` is the month the card must not be before. */
export function checkExpiry(expiry: string, now: Date = new Date()): FieldCheck {
  if (!expiry) return incomplete('Enter the expiry date as MM/YY.');
  const digits = digitsOf(expiry);
  const month = digits.slice(0, 2);
  if (month.length === 2 && !cardValidator.expirationMonth(month).isValid)
    return wrong('The expiry month must be 01 to 12.');
  if (digits.length < 4) return incomplete('Enter the expiry date as MM/YY.');
  const year = 2000 + Number(digits.slice(2, 4));
  const thisYear = now.getFullYear();
  if (year < thisYear || (year === thisYear && Number(month) < now.getMonth() + 1))
    return wrong('This card has expired.');
  // card-validator allows up to 19 years ahead, as card issuers do.
  if (!cardValidator.expirationDate(`${month}/${digits.slice(2, 4)}`).isValid)
    return wrong('This expiry date is too far ahead: check the year.');
  return ok;
}

export function checkCvc(cvc: string, number: string): FieldCheck {
  const brand = cardBrand(number);
  const size = brand?.code.size ?? 3;
  const name = brand?.code.name ?? 'CVC';
  if (!cvc) return incomplete(`Enter the ${size}-digit ${name}.`);
  if (cardValidator.cvv(cvc, size).isValid) return ok;
  return cvc.length > size
    ? wrong(`The ${name} of this card is ${size} digits.`)
    : incomplete(`Enter the ${size}-digit ${name}.`);
}

export type CardChecks = Record<CardField, FieldCheck>;

export function checkCard(card: CardDetails, now: Date = new Date()): CardChecks {
  return {
    name: checkName(card.name),
    number: checkNumber(card.number),
    expiry: checkExpiry(card.expiry, now),
    cvc: checkCvc(card.cvc, card.number),
  };
}

/** Complete: every field valid. */
export function isCardComplete(card: CardDetails, now: Date = new Date()): boolean {
  const checks = checkCard(card, now);
  return CARD_FIELDS.every((field) => checks[field].message === null);
}

/** The fields still to fix, in the form's order: what the Pay button waits for. */
export function fieldsToFix(checks: CardChecks): CardField[] {
  return CARD_FIELDS.filter((field) => checks[field].message !== null);
}
