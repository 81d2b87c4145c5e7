import { describe, expect, it } from 'vitest';
import { ZResetPasswordFormSchema, ZSignInFormSchema, ZSignUpFormSchema } from './auth-schemas';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('auth form validation', () => {
  it('requires a full name, matching passwords of at least 6 characters', () => {
    const result = ZSignUpFormSchema.safeParse({
      fullName: '  ',
      email: 'ada@example.com',
      password: 'secret1',
      confirmPassword: 'secret2',
    });
    expect(messages(result)).toEqual({
      fullName: 'Full name is required',
      confirmPassword: 'Passwords do not match',
    });

    expect(
      messages(
        ZSignUpFormSchema.safeParse({
          fullName: 'Ada',
          email: 'ada@example.com',
          password: '12345',
          confirmPassword: '12345',
        }),
      ),
    ).toEqual({ password: 'Password must be at least 6 characters' });
  });

  it('accepts a valid signup and trims the name and e-mail', () => {
    const result = ZSignUpFormSchema.parse({
      fullName: ' Ada Lovelace ',
      email: ' ada@example.com ',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(result.fullName).toBe('Ada Lovelace');
    expect(result.email).toBe('ada@example.com');
  });

  it('validates sign in and reset forms', () => {
    expect(messages(ZSignInFormSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(
      messages(
        ZResetPasswordFormSchema.safeParse({
          resetToken: '',
          newPassword: 'abcdef',
          confirmPassword: 'abcdeg',
        }),
      ),
    ).toEqual({ resetToken: 'Reset code is required', confirmPassword: 'Passwords do not match' });
  });
});
