import { z } from 'zod';

/** Every error the API answers has this body. */
export const ZErrorSchema = z.object({
  detail: z.string(),
  code: z.string(),
});
export type ApiError = z.infer<typeof ZErrorSchema>;

/** Machine codes, each with its HTTP status. */
export const ERROR_STATUS = {
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_refresh_token: 401,
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  payment_not_found: 404,
  email_taken: 409,
  conflict: 409,
  payment_incomplete: 409,
  invalid_signature: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  invalid_reset_token: 400,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** User-facing messages from the spec's error catalogue, used by server and client alike. */
export const MESSAGES = {
  authFailed: 'Authentication failed. Please try again.',
  signupFailed: 'Registration failed. Please try again.',
  signupNoToken: 'Signup failed - no access token or user data received',
  loginNoToken: 'Login failed - no access token or user data received',
  resetEmailFailed: 'Failed to send reset email',
  resetFailed: 'Failed to reset password',
  profileUpdateFailed: 'Failed to update profile',
  profileLoadFailed: 'Failed to load user information. Please try again.',
  authRequired: 'Authentication required',
  network: 'Connection error. Please check your internet connection and try again.',
  fullNameRequired: 'Full name is required',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  invalidRefreshToken: 'Your session has expired. Please sign in again.',
  invalidResetToken: 'This reset code is invalid or has expired. Request a new one.',
  forgotPasswordSent:
    'If an account exists for that email, we have sent password reset instructions.',
  passwordResetDone: 'Your password has been reset. You can now sign in.',
  loggedOut: 'Signed out',
  internal: 'Something went wrong on our side. Please try again.',
  notFound: 'Not found',
  malformedJson: 'The request body is not valid JSON',
  payloadTooLarge: 'The request body is too large',
  // Payments (spec error catalogue)
  paymentIntentFailed: 'Failed to create payment intent',
  confirmFailed: 'Failed to confirm payment',
  purchaseFailed: 'Purchase failed. Please try again.',
  trainingPaymentFailed: 'Failed to create training payment',
  trainingPurchaseFailed: 'Failed to create training purchase payment',
  noTargetPlan: 'No target plan selected',
  upgradeFailed: 'Failed to create upgrade payment',
  generationPaymentFailed: 'Failed to create generation payment',
  creditPaymentFailed: 'Failed to create credit payment',
  paymentInfoFailed: 'Failed to load payment information',
  confirmAfterPaymentFailed: 'Payment succeeded but failed to confirm. Please contact support.',
  cardIncomplete: 'Please complete card information',
  invalidCreditPack: 'Invalid credit pack selected',
  invalidPaymentType: 'Invalid payment type or missing parameters',
  subscriptionLoadFailed: 'Failed to load subscription information',
  subscriptionMissing: 'Subscription information unavailable',
  cancelFailed: 'Failed to cancel subscription',
  reactivateFailed: 'Failed to reactivate subscription',
  pricingLoadFailed: 'Failed to load pricing information. Please try again.',
  trainingUploadNext: 'Now upload photos to train your AI model.',
  insufficientCredits: 'Insufficient credits. Complete training first to get credits.',
  cardDeclined: 'Your card was declined.',
  paymentNotCompleted: 'This payment has not been completed yet.',
  invalidWebhookSignature: 'Invalid webhook signature',
} as const;
