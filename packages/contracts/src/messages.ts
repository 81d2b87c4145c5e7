// Plain constants, no zod: safe to import from the smallest web bundle.
import { SESSION_MESSAGES } from './session-messages.js';

/** Machine codes, each with its HTTP status. */
export const ERROR_STATUS = {
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_refresh_token: 401,
  payment_failed: 402,
  payment_required: 402,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  payment_not_found: 404,
  email_taken: 409,
  conflict: 409,
  payment_incomplete: 409,
  invalid_signature: 400,
  payload_too_large: 413,
  upgrade_required: 426,
  unsupported_media_type: 415,
  validation_error: 422,
  idempotency_key_reused: 422,
  invalid_reset_token: 400,
  rate_limited: 429,
  internal_error: 500,
  generation_failed: 502,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** User-facing messages from the spec's error catalogue, used by server and client alike. */
export const MESSAGES = {
  ...SESSION_MESSAGES,
  authFailed: 'Authentication failed. Please try again.',
  signupFailed: 'Registration failed. Please try again.',
  signupNoToken: 'Signup failed - no access token or user data received',
  loginNoToken: 'Login failed - no access token or user data received',
  resetEmailFailed: 'Failed to send reset email',
  resetFailed: 'Failed to reset password',
  profileUpdateFailed: 'Failed to update profile',
  profileLoadFailed: 'Failed to load user information. Please try again.',
  fullNameRequired: 'Full name is required',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  invalidResetToken: 'This reset code is invalid or has expired. Request a new one.',
  forgotPasswordSent:
    'If an account exists for that email, we have sent password reset instructions.',
  passwordResetDone: 'Your password has been reset. You can now sign in.',
  loggedOut: 'Signed out',
  internal: 'Something went wrong on our side. Please try again.',
  notFound: 'Not found',
  /** The queue console refuses a change sent from another site's page (its cookie rides along). */
  adminCrossOrigin: "The queue console takes changes only from Studioshot's own pages.",
  methodNotAllowed: 'This address does not take {method} requests; it takes {allowed}.',
  malformedJson: 'The request body is not valid JSON',
  payloadTooLarge: 'The request body is too large',
  wsUpgradeRequired:
    'This address is the realtime channel: open it as a WebSocket (Upgrade: websocket).',
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
  // Renewals (billing periods) and the test clock
  renewalNotReceived: 'The renewal payment was not received.',
  noRenewalToPay: 'There is no failed renewal to pay: your subscription is up to date.',
  renewalPayFailed: 'Failed to pay the renewal',
  cardUpdateFailed: 'Failed to update your card',
  testClockNoSubscription:
    'There is no running subscription to advance: subscribe to a plan first.',
  pricingLoadFailed: 'Failed to load pricing information. Please try again.',
  trainingUploadNext: 'Now upload photos to train your AI model.',
  insufficientCredits: 'Insufficient credits. Complete training first to get credits.',
  cardDeclined: 'Your card was declined.',
  paymentNotCompleted: 'This payment has not been completed yet.',
  paymentNotPaid:
    'This payment has not been paid: the card form (Stripe.js) pays it, then confirm it.',
  paymentCanceled: 'This payment was cancelled: start a new one.',
  invalidWebhookSignature: 'Invalid webhook signature',
  // Upgrades, resumed intents, billing history and receipts
  paymentIntentLoadFailed: 'Failed to get payment intent',
  creditPackComingSoon:
    'This credit pack is coming soon and cannot be bought yet. Our credit packages are on sale now on the Credits page.',
  upgradeNotHigher:
    'An upgrade must be to a higher plan: to change to a lower plan, cancel and choose it when your period ends.',
  planChangeNeedsUpgrade:
    'You already have a plan. Upgrade it from the pricing page: you pay only the difference for the rest of your billing period.',
  upgradePlanChanged:
    'Your plan has changed since this page was opened. Reload the page to see the upgrade from your current plan.',
  upgradePastDue:
    'The last renewal payment of your plan did not go through. Once it is paid you can upgrade.',
  paymentIntentOtherOrder: 'This payment is for a different purchase. Start this purchase again.',
  paymentIntentClosed: 'This payment can no longer be paid. Start the purchase again.',
  billingHistoryFailed: 'Failed to load billing history',
  receiptNotFound: 'Receipt not found',
  receiptLoadFailed: 'Failed to load the receipt',
  refundWindowClosed:
    'This payment was made more than 30 days ago, so the money-back guarantee no longer covers it.',
  refundNotPaid: 'Only a completed payment can be refunded.',
  refundRefused: 'The payment provider refused this refund:',
  refundFailed: 'The refund could not be made right now. Please try again in a few minutes.',
  refundDone: 'Your refund is on its way: it reaches your card in 5 to 10 business days.',
  paymentRefunded: 'This payment was refunded, so it can no longer be used.',
  // Upload (spec error catalogue and validation rules)
  sessionCreateFailed: 'Failed to create upload session',
  sessionCompleteFailed: 'Failed to complete session',
  sessionStatusFailed: 'Failed to get session status',
  sessionNotFound: 'Upload session not found',
  sessionExpired: 'This upload session has expired. Start a new upload.',
  sessionAlreadyComplete: 'This upload session is already complete.',
  uploadFailed: 'Upload failed. Please try again.',
  uploadCancelled: 'Upload cancelled',
  uploadInProgress: 'Upload already in progress',
  optimizeFailed: 'Failed to optimize images. Please try again.',
  onlyImages: 'Please only upload image files',
  tooManyPhotos: 'Maximum 20 photos allowed',
  minPhotos: 'Minimum 10 photos required for training',
  fileTooLarge: 'File too large (max 50MB)',
  invalidFileType: 'Invalid file type. Only JPEG, PNG, and WebP are allowed.',
  noFile: 'No file received: send the photo in the multipart field "file".',
  duplicatePhoto: 'This photo is already in your set.',
  photoNotFound: 'Photo not found',
  checksStillRunning: 'We are still checking your photos. Try again in a few seconds.',
  photoNotFlagged:
    'This photo was not flagged as someone else, so there is nothing to confirm: only a photo the same-person check flagged can be marked "This is me".',
  planRequired: 'Choose a plan to train your personal model.',
  trainingLimit: 'Training limit reached. Please upgrade your plan.',
  // Training and queue (docs/spec/calls.md#74-training, docs/spec/calls.md#77-queue,
  // docs/spec/errors.md)
  trainingStartFailed: 'Failed to start training',
  trainingNotFound: 'Training model not found',
  trainingStatusFailed: 'Failed to fetch training status',
  sessionNotReady: 'Finish uploading this session (Start Training on the upload page) first.',
  sessionAlreadyTrained: 'A model is already being trained from this upload session.',
  taskNotFound: 'Task not found',
  taskNotCancellable: 'This task has already finished and cannot be cancelled.',
  trainingNotCancellable: 'Training cannot be stopped once started.',
  queueInitializing: 'Queue system initializing...',
  taskTypeUnavailable: 'This task type is not available yet.',
  noWorkerForTraining:
    'No training machine came online to run your training, so it was stopped and your training slot was given back. Please try again later.',
  noWorkerForGeneration:
    'No machine came online to make your headshots, so the generation was stopped and any credit it reserved was given back. Please try again later.',
  trainingForAnotherUser: 'You can only train models for your own account.',
  // Generation
  modelNotFound: 'Selected model not found',
  modelNotReady: 'This model has not finished training, so it cannot generate headshots yet.',
  uploadPhotosFirst:
    'Upload your photos first: your headshots are made from your personal model or, until it is trained, from your best photo.',
  generationPaymentNeedsPhotos:
    'Upload your photos before paying for headshots: we need a clear photo of your face to make them.',
  paymentNotForGeneration: 'This payment is not a headshot generation order.',
  paymentNotFound: 'Payment not found',
  generationOrderRefunded: 'Your payment for it has been refunded.',
  stalePlanPaymentRefunded:
    'Your plan changed after this payment was started, so it was not applied and has been refunded.',
  generationFailed: 'Generation failed',
  noImagesGenerated: 'No images were generated. Please try again.',
  generationNotFound: 'Generation not found',
  generationNotCancellable: 'A generation cannot be stopped once it has started.',
  imageNotFound: 'Image not found',
  imageLinkExpired:
    'This image link has expired or is not valid. Reload the page to get a new one.',
  templateNotFound: 'This style template does not exist.',
  // What became of a Generate call's prompt (its answer's prompt_note).
  promptNotSent: "No prompt was sent, so the style's own look was used.",
  promptIsTemplates: "This is the template's own prompt, so the template's own look was used.",
  promptNeedsPlan:
    "Your prompt was not used: custom prompts on a chosen template come with the Premium annual plan, so the template's own prompt was used.",
  promptNoStudioWords:
    "Your prompt was not used: none of its words name a backdrop, light or framing this engine renders (try 'office', 'outdoors', 'dark', 'bright', 'close-up' or 'navy background').",
  promptNotRecorded: 'What became of the prompt was not recorded for this generation.',
  styleNotFound: 'Unknown style: choose one of the styles listed.',
  squareImagesOnly: 'width and height must be equal: headshots are square.',
  idempotencyKeyReused:
    'This Idempotency-Key was already used with a different request: send a new key for a new generation.',
  imageDeleted: 'Image deleted',
  retrainToGenerate:
    'This model was trained before generation existed: retrain it to generate headshots.',
  unknownWaitEstimate:
    'Unknown task type or priority: task types are training, generation and batch_generation; priorities are urgent, high and normal.',
  trainingFailedToast: 'training failed: {error_message}',
  unknownError: 'Unknown error',
  // Account settings, export and privacy
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Your current password is not correct.',
  passwordChanged: 'Password changed. Every other sign-in has been signed out.',
  signInNotFound: 'This sign-in does not exist or has already ended.',
  sessionSignedOut: 'Signed out of that session',
  signedOutEverywhere: 'Signed out everywhere',
  exportNotFound: 'Export not found',
  exportLinkExpired:
    'This download link has expired or is not valid. Open Settings to get a new one.',
  exportFailed: 'We could not build your export. Please try again.',
  settingsLoadFailed: 'Failed to load your account settings. Please try again.',
  // Deletion: a model, a photo set, the account
  modelDeleted: 'Model deleted, with its files and every headshot made with it.',
  modelDeleting:
    'Your model is being deleted: its running work is being stopped first. It will be gone in a moment.',
  modelDeleteFailed: 'Failed to delete the model. Please try again.',
  photoSetDeleted: 'Photos deleted, with every copy we made of them.',
  photoSetDeleting: 'Your photos are being deleted. They will be gone in a moment.',
  photoSetInTraining:
    'These photos are being used by a training that has not finished. Wait for it to finish, or delete the model, then delete the photos.',
  photoSetDeleteFailed: 'Failed to delete the photos. Please try again.',
  photoSetsLoadFailed: 'Failed to load your photo sets. Please try again.',
  deletePasswordWrong: 'That password is not correct. Nothing has been deleted.',
  accountDeleting: 'Your account is being deleted. You have been signed out everywhere.',
  accountDeleted: 'Your account has been deleted.',
  accountDeletionNotFound: 'Account deletion not found',
  accountDeleteFailed: 'Failed to delete your account. Please try again.',
} as const;
