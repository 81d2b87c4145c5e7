import { MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@studioshot/contracts';
import { z } from 'zod';

export const ZNameFormSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.fullNameRequired }).max(200),
});
export type NameForm = z.infer<typeof ZNameFormSchema>;

const passwordFields = z.object({
  currentPassword: z.string().min(1, { error: MESSAGES.currentPasswordRequired }),
  newPassword: z
    .string()
    .min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordTooShort })
    .max(PASSWORD_MAX_LENGTH, { error: 'Password is too long' }),
  confirmPassword: z.string(),
});
const newPair = passwordFields.pick({ newPassword: true, confirmPassword: true });

export const ZChangePasswordFormSchema = passwordFields.refine(
  (form) => form.newPassword === form.confirmPassword,
  {
    error: MESSAGES.passwordsMismatch,
    path: ['confirmPassword'],
    // Report a mismatch even while the current password is still missing.
    when: (payload) => newPair.safeParse(payload.value).success,
  },
);
export type ChangePasswordForm = z.infer<typeof ZChangePasswordFormSchema>;

export const ZDeleteAccountFormSchema = z.object({
  password: z.string().min(1, { error: 'Enter your password to confirm' }),
});
export type DeleteAccountForm = z.infer<typeof ZDeleteAccountFormSchema>;
