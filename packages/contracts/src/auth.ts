import { z } from 'zod';
import { NO_NUL_PATTERN, NUL_REFUSED, requiredText, token, TRIMMED_WHITESPACE } from './text.js';

export const PASSWORD_MIN_LENGTH = 6;
/** Upper bound keeps hashing cheap; bcrypt only ever sees a fixed-size pre-hash. */
export const PASSWORD_MAX_LENGTH = 1024;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export const EMAIL_MAX_LENGTH = 254;
/**
 * zod's own e-mail pattern (z.email()), with the whitespace trim() removes allowed around it: the
 * document shows exactly what is accepted (the address is trimmed and lower-cased).
 */
const EMAIL_PATTERN = new RegExp(
  `^[${TRIMMED_WHITESPACE}]*(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}[${TRIMMED_WHITESPACE}]*$`,
);
const email = z
  .string()
  .max(EMAIL_MAX_LENGTH)
  .regex(EMAIL_PATTERN, { error: 'Enter a valid email address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address' }));

const password = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, { error: 'Password must be at least 6 characters' })
  .max(PASSWORD_MAX_LENGTH, { error: 'Password is too long' })
  .regex(NO_NUL_PATTERN, NUL_REFUSED);
/** A password being set (sign-up, reset, change): the spec's rules and messages. */
export const ZNewPasswordSchema = password;

const personName = (max: number) => requiredText(max, 'Full name is required').optional();

/**
 * Sign-up. The account's name is `name`, else `full_name`, else `first_name` and `last_name`
 * joined (the spec's sign-up page builds its name from either); one of them is required.
 */
export const ZRegisterRequestSchema = z
  .strictObject({
    email,
    password,
    name: personName(200),
    full_name: personName(200),
    first_name: personName(100),
    last_name: personName(100),
  })
  .superRefine((body, ctx) => {
    if ([body.name, body.full_name, body.first_name].every((part) => part === undefined))
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'Full name is required' });
  })
  .meta({
    anyOf: [{ required: ['name'] }, { required: ['full_name'] }, { required: ['first_name'] }],
  });
export type RegisterRequest = z.infer<typeof ZRegisterRequestSchema>;

/** The name a sign-up gives the account (ZRegisterRequestSchema's rule). */
export function registrationName(body: RegisterRequest): string {
  const name =
    body.name ?? body.full_name ?? [body.first_name, body.last_name].filter(Boolean).join(' ');
  if (!name) throw new Error('ZRegisterRequestSchema requires a name');
  return name;
}

export const ZLoginRequestSchema = z.strictObject({
  email,
  password: z
    .string()
    .min(1, { error: 'Password is required' })
    .max(PASSWORD_MAX_LENGTH)
    .regex(NO_NUL_PATTERN, NUL_REFUSED),
});
export type LoginRequest = z.infer<typeof ZLoginRequestSchema>;

export const ZRefreshRequestSchema = z.strictObject({
  refresh_token: token(512),
});

export const ZLogoutRequestSchema = z
  .strictObject({ refresh_token: token(512).optional() })
  .optional();

export const ZForgotPasswordRequestSchema = z.strictObject({ email });

export const ZResetPasswordRequestSchema = z.strictObject({
  email,
  reset_token: token(512),
  new_password: password,
});

/** The plans an account can be on, from the lowest tier up. */
export const PLAN_TYPES = ['free', 'starter', 'professional', 'premium'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const ZPlanTypeSchema = z.enum(PLAN_TYPES);
export const ZGenderSchema = z.enum(['male', 'female']);

/** The User entity of the spec, as every endpoint returns it. */
export const ZUserSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  full_name: z.string(),
  first_name: z.string(),
  plan_type: ZPlanTypeSchema,
  subscription_interval: z.string().nullable(),
  training_limit: z.number().int(),
  models_trained: z.number().int(),
  credits_balance: z.number().int(),
  total_generations: z.number().int(),
  gender: ZGenderSchema.nullable(),
  age: z.number().int().nullable(),
  is_debug: z.boolean(),
  /** Present only on an admin's own profile (the header links the ops console for them). */
  is_admin: z.literal(true).optional(),
  created_at: z.string(),
});
export type User = z.infer<typeof ZUserSchema>;

export const ZTokenSetSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type TokenSet = z.infer<typeof ZTokenSetSchema>;

export const ZAuthResponseSchema = ZTokenSetSchema.extend({ user: ZUserSchema });
export type AuthResponse = z.infer<typeof ZAuthResponseSchema>;

export const ZRefreshResponseSchema = ZTokenSetSchema;

export const ZMessageResponseSchema = z.object({ message: z.string() });

export const ZForgotPasswordResponseSchema = z.object({
  message: z.string(),
  /** Only present when the outbox mail transport is active (local and test use). */
  reset_token: z.string().optional(),
});

export const ZProfileUpdateRequestSchema = z.strictObject({
  gender: ZGenderSchema.optional(),
  age: z
    .number({ error: 'Age must be a number' })
    .int({ error: 'Age must be a whole number' })
    .min(18, { error: 'Age must be between 18 and 100' })
    .max(100, { error: 'Age must be between 18 and 100' })
    .nullable()
    .optional(),
  name: requiredText(200, 'Full name is required').optional(),
});
export type ProfileUpdateRequest = z.infer<typeof ZProfileUpdateRequestSchema>;
