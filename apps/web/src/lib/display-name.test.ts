import { describe, expect, it } from 'vitest';
import { bestName, welcomeName } from './display-name';

describe('display names', () => {
  it('picks name, full_name, first_name, e-mail local part, then User', () => {
    expect(bestName({ name: 'Ada', full_name: 'Ada Lovelace', email: 'a@x.io' })).toBe('Ada');
    expect(bestName({ name: ' ', full_name: 'Ada Lovelace', email: 'a@x.io' })).toBe(
      'Ada Lovelace',
    );
    expect(bestName({ first_name: 'Ada', email: 'a@x.io' })).toBe('Ada');
    expect(bestName({ email: 'ada.l@x.io' })).toBe('ada.l');
    expect(bestName({})).toBe('User');
    expect(bestName(null)).toBe('User');
  });

  it('welcomes by name, else full_name, else e-mail', () => {
    expect(welcomeName({ name: '', full_name: 'Ada Lovelace', email: 'a@x.io' })).toBe(
      'Ada Lovelace',
    );
    expect(welcomeName({ email: 'a@x.io' })).toBe('a@x.io');
  });
});
