import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatCvc, formatExpiry, isCardComplete } from './card';

describe('card form rules', () => {
  it('groups the number by 4, digits only, at most 19 characters', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42a42')).toBe('4242 4242 4242');
    expect(formatCardNumber('42424242424242429999')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424242424242429999')).toHaveLength(19);
    expect(formatCardNumber('')).toBe('');
  });

  it('writes the expiry as MM/YY from digits, at most 5 characters', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(formatExpiry('ab12cd34')).toBe('12/34');
  });

  it('keeps the cvc to 4 digits', () => {
    expect(formatCvc('12a3')).toBe('123');
    expect(formatCvc('123456')).toBe('1234');
  });

  it('is complete with number >= 16, expiry >= 5, cvc >= 3 and a name', () => {
    const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada' };
    expect(isCardComplete(card)).toBe(true);
    expect(isCardComplete({ ...card, number: '4242 4242 4242' })).toBe(false);
    expect(isCardComplete({ ...card, expiry: '12/3' })).toBe(false);
    expect(isCardComplete({ ...card, cvc: '12' })).toBe(false);
    expect(isCardComplete({ ...card, name: '   ' })).toBe(false);
  });
});
