import { describe, expect, it } from 'vitest';
import {
  cardBrand,
  cardNumberMaxLength,
  checkCard,
  checkCvc,
  checkExpiry,
  checkNumber,
  fieldsToFix,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  isCardComplete,
} from './card';

// A fixed "today" for the expiry rules: November 2026.
const NOW = new Date(2026, 10, 25);
const VISA = '4242 4242 4242 4242';
const AMEX = '3782 822463 10005';

describe('card number', () => {
  it('groups the digits as the brand prints them, digits only', () => {
    expect(formatCardNumber('4242424242424242')).toBe(VISA);
    expect(formatCardNumber('4242-4242 42a42')).toBe('4242 4242 4242');
    expect(formatCardNumber('42424242424242429999')).toBe(VISA);
    expect(formatCardNumber('5555555555554444')).toBe('5555 5555 5555 4444');
    expect(formatCardNumber('378282246310005')).toBe(AMEX);
    expect(formatCardNumber('3782822463100059999')).toBe(AMEX);
    expect(formatCardNumber('')).toBe('');
  });

  it('knows the brand, its lengths and its security code', () => {
    expect(cardBrand(VISA)).toMatchObject({ name: 'Visa', code: { name: 'CVV', size: 3 } });
    expect(cardBrand(AMEX)).toMatchObject({
      name: 'American Express',
      lengths: [15],
      code: { name: 'CID', size: 4 },
    });
    expect(cardBrand('')).toBeNull();
    expect(cardNumberMaxLength('5555')).toBe(19);
    expect(cardNumberMaxLength('37')).toBe(17);
  });

  it('is valid by the Luhn check digit and the brand length', () => {
    expect(checkNumber(VISA).message).toBeNull();
    expect(checkNumber(AMEX).message).toBeNull();
    // One digit changed: the check digit no longer matches.
    expect(checkNumber('4242 4242 4242 4241')).toEqual({
      message: 'This card number is not valid: check the digits.',
      definite: true,
    });
    // Still being typed: not wrong yet, says how many digits the brand needs.
    expect(checkNumber('4242 4242 42')).toEqual({
      message: 'Enter all 16 digits of the card number.',
      definite: false,
    });
    expect(checkNumber('3782 8224')).toEqual({
      message: 'Enter all 15 digits of the card number.',
      definite: false,
    });
    // No card number starts like this.
    expect(checkNumber('9999 9999')).toEqual({
      message: 'This is not a valid card number.',
      definite: true,
    });
    expect(checkNumber('').message).toBe('Enter the card number.');
  });
});

describe('expiry', () => {
  it('writes MM/YY from digits, a lone 2-9 as that month', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(formatExpiry('ab12cd34')).toBe('12/34');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('427')).toBe('04/27');
  });

  it('must be a real month that has not passed', () => {
    expect(checkExpiry('12/34', NOW).message).toBeNull();
    expect(checkExpiry('11/26', NOW).message).toBeNull();
    expect(checkExpiry('13/99', NOW)).toEqual({
      message: 'The expiry month must be 01 to 12.',
      definite: true,
    });
    expect(checkExpiry('13', NOW).definite).toBe(true);
    expect(checkExpiry('00/30', NOW).message).toBe('The expiry month must be 01 to 12.');
    expect(checkExpiry('10/26', NOW)).toEqual({
      message: 'This card has expired.',
      definite: true,
    });
    expect(checkExpiry('12/20', NOW).message).toBe('This card has expired.');
    expect(checkExpiry('12/99', NOW).message).toBe(
      'This expiry date is too far ahead: check the year.',
    );
    expect(checkExpiry('12/3', NOW)).toEqual({
      message: 'Enter the expiry date as MM/YY.',
      definite: false,
    });
  });
});

describe('CVC', () => {
  it('keeps the cvc to 4 digits', () => {
    expect(formatCvc('12a3')).toBe('123');
    expect(formatCvc('123456')).toBe('1234');
  });

  it('has the length of the brand: 3 for Visa, 4 for American Express', () => {
    expect(checkCvc('123', VISA).message).toBeNull();
    expect(checkCvc('1234', VISA)).toEqual({
      message: 'The CVV of this card is 3 digits.',
      definite: true,
    });
    expect(checkCvc('123', AMEX)).toEqual({
      message: 'Enter the 4-digit CID.',
      definite: false,
    });
    expect(checkCvc('1234', AMEX).message).toBeNull();
    expect(checkCvc('', '').message).toBe('Enter the 3-digit CVC.');
  });
});

describe('the whole card', () => {
  const card = { number: VISA, expiry: '12/34', cvc: '123', name: 'Ada' };

  it('is complete only when every field is valid, and names what is left', () => {
    expect(isCardComplete(card, NOW)).toBe(true);
    expect(isCardComplete({ ...card, name: '   ' }, NOW)).toBe(false);
    expect(isCardComplete({ ...card, expiry: '13/99' }, NOW)).toBe(false);
    expect(isCardComplete({ ...card, number: '4242 4242 4242 4241' }, NOW)).toBe(false);
    expect(fieldsToFix(checkCard({ ...card, name: '', cvc: '12' }, NOW))).toEqual(['name', 'cvc']);
  });
});
