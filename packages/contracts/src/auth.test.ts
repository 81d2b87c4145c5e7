import { describe, expect, it } from 'vitest';
import {
  registrationName,
  ZProfileUpdateRequestSchema,
  ZRegisterRequestSchema,
  ZUserSchema,
} from './auth.js';

describe('ZRegisterRequestSchema', () => {
  it('normalises the e-mail and trims the name', () => {
    const parsed = ZRegisterRequestSchema.parse({
      email: '  Ada@Example.COM ',
      password: 'secret1',
      name: ' Ada ',
    });
    expect(parsed).toEqual({ email: 'ada@example.com', password: 'secret1', name: 'Ada' });
  });
  it('uses the spec messages', () => {
    const result = ZRegisterRequestSchema.safeParse({
      email: 'a@b.co',
      password: '12345',
      name: '',
    });
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toContain('Password must be at least 6 characters');
    expect(messages).toContain('Full name is required');
  });
  it("builds the name from full_name, or first plus last name (the spec's sign-up page)", () => {
    const base = { email: 'a@b.co', password: 'secret1' };
    const name = (body: object) =>
      registrationName(ZRegisterRequestSchema.parse({ ...base, ...body }));
    expect(name({ full_name: ' Ada Lovelace ' })).toBe('Ada Lovelace');
    expect(name({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(name({ first_name: 'Ada' })).toBe('Ada');
    expect(name({ name: 'Ada', full_name: 'Ada Lovelace' })).toBe('Ada');
    const none = ZRegisterRequestSchema.safeParse({ ...base, last_name: 'Lovelace' });
    expect(none.error?.issues.map((i) => i.message)).toEqual(['Full name is required']);
  });
  it('refuses unknown fields', () => {
    expect(
      ZRegisterRequestSchema.safeParse({
        email: 'a@b.co',
        password: 'secret1',
        name: 'A',
        role: 'x',
      }).success,
    ).toBe(false);
  });
});

describe('ZProfileUpdateRequestSchema', () => {
  it('accepts 18 to 100 and null, nothing else', () => {
    for (const age of [18, 55, 100, null])
      expect(ZProfileUpdateRequestSchema.safeParse({ age }).success).toBe(true);
    for (const age of [17, 101, 20.5, '30'])
      expect(ZProfileUpdateRequestSchema.safeParse({ age }).success).toBe(false);
  });
  it('accepts only male or female', () => {
    expect(ZProfileUpdateRequestSchema.safeParse({ gender: 'female' }).success).toBe(true);
    expect(ZProfileUpdateRequestSchema.safeParse({ gender: 'x' }).success).toBe(false);
  });
});

describe('ZUserSchema', () => {
  it('requires the plan to be a known tier', () => {
    const shape = ZUserSchema.shape.plan_type;
    expect(shape.safeParse('premium').success).toBe(true);
    expect(shape.safeParse('gold').success).toBe(false);
  });
});
