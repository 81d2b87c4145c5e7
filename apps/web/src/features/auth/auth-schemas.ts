import { MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@studioshot/contracts';
import { z } from 'zod';

const email = z
  .string()
  .trim()
  .min(1, { error: 'Email is required' })
  .pipe(z.email({ error: 'Enter a valid email address' }));

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: 'Password is too long' });

export const ZSignInFormSchema = z.object({
  email,
  password: z.string().min(1, { error: 'Password is required' }),
});
export type SignInForm = z.infer<typeof ZSignInFormSchema>;

const signUpFields = z.object({
  fullName: z.string().trim().min(1, { error: MESSAGES.fullNameRequired }).max(200),
  email,
  password: newPassword,
  confirmPassword: z.string(),
});

const passwordPair = signUpFields.pick({ password: true, confirmPassword: true });

export const ZSignUpFormSchema = signUpFields.refine(
  (form) => form.password === form.confirmPassword,
  {
    error: MESSAGES.passwordsMismatch,
    path: ['confirmPassword'],
    // Report a mismatch even while other fields are still invalid.
    when: (payload) => passwordPair.safeParse(payload.value).success,
  },
);
export type SignUpForm = z.infer<typeof ZSignUpFormSchema>;

export const ZResetRequestFormSchema = z.object({ email });
export type ResetRequestForm = z.infer<typeof ZResetRequestFormSchema>;

const resetFields = z.object({
  resetToken: z.string().trim().min(1, { error: 'Reset code is required' }),
  newPassword,
  confirmPassword: z.string(),
});
const resetPair = resetFields.pick({ newPassword: true, confirmPassword: true });

export const ZResetPasswordFormSchema = resetFields.refine(
  (form) => form.newPassword === form.confirmPassword,
  {
    error: MESSAGES.passwordsMismatch,
    path: ['confirmPassword'],
    when: (payload) => resetPair.safeParse(payload.value).success,
  },
);
export type ResetPasswordForm = z.infer<typeof ZResetPasswordFormSchema>;
