import type { PlanType, TaskStatus, TaskType } from '@studioshot/contracts';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// The database schema, declared once. Migrations in ./migrations must keep this in step.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type Gender = 'male' | 'female';

/**
 * Who the person is: set on every live account, and only ever null on a deleted account's
 * tombstone (`deleted_at` set, CHECK users_tombstone_is_anonymous), which nobody can sign in to;
 * only the deletion itself writes null (hence the update type).
 */
type Identity = ColumnType<string, string, string | null>;

export interface UsersTable {
  id: Generated<string>;
  email: Identity;
  password_hash: Identity;
  name: Identity;
  plan_type: ColumnType<PlanType, PlanType | undefined, PlanType>;
  subscription_interval: string | null;
  training_limit: Generated<number>;
  models_trained: Generated<number>;
  credits_balance: Generated<number>;
  total_generations: Generated<number>;
  gender: Gender | null;
  age: number | null;
  is_debug: Generated<boolean>;
  extra_training_slots: Generated<number>;
  /** The person asked to delete the account: from then on nobody signs in to it. */
  deletion_requested_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** The deletion's own random id: its job's id, and how its page follows it. */
  deletion_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The deletion finished: this row is a tombstone holding the id the accounting points at. */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** 'admin' opens the ops console; set only by the command-line tool (cli/admin.ts). */
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type UserRole = 'user' | 'admin';

/** One sign-in: every refresh token rotated from one login shares a family. */
export interface RefreshTokenFamiliesTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  /** Absolute expiry: rotation never extends a session past this. */
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  /** The browser that signed in (its User-Agent header) and the address it came from. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  ip_address: ColumnType<string | null, string | null | undefined, string | null>;
  /** Sign-in, then each refresh-token rotation. */
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface RefreshTokensTable {
  /** SHA-256 of the opaque token, hex. The token itself is never stored. */
  token_hash: string;
  family_id: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The mail outbox: every e-mail we send is recorded here first. */
export interface OutboxEmailsTable {
  id: Generated<string>;
  to_email: string;
  subject: string;
  body_text: string;
  kind: string;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

/** Append-only: one row for every change to a credit balance. */
export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  delta: number;
  balance_after: number;
  reason: string;
  idempotency_key: string;
  payment_id: string | null;
  created_at: Timestamp;
}

export type PaymentKind =
  | 'credits'
  | 'subscription'
  | 'upgrade'
  | 'training_slots'
  | 'generation'
  /** A subscription's next period, charged by the renewal job or reported by the provider. */
  | 'renewal';
export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';
/** Why an owner asked for their money back (the 30-day guarantee). */
export type RefundReason =
  | 'not_satisfied'
  | 'not_like_me'
  | 'technical_problem'
  | 'bought_by_mistake'
  | 'no_longer_needed'
  | 'other';

export interface PaymentsTable {
  id: Generated<string>;
  user_id: string;
  provider: string;
  provider_intent_id: string;
  kind: PaymentKind;
  item_id: string;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  fulfilled_at: Timestamp | null;
  /** A plan payment: the plan the user was on when it was created (it applies only from there). */
  from_plan: string | null;
  /** When the provider refunded it (a paid generation that failed, a stale plan payment). */
  refunded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /**
   * A paid generation that ended failed or cancelled: when its end recorded that the order is due
   * back (the task store's end effect); the refund handler then refunds it at the provider.
   */
  refund_due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** An upgrade in the middle of a period: how it was priced (applies only within that period). */
  proration: ColumnType<PaymentProration | null, string | null | undefined, string | null>;
  /** A refund its owner asked for under the 30-day guarantee: the reason they chose. */
  refund_reason: ColumnType<
    RefundReason | null,
    RefundReason | null | undefined,
    RefundReason | null
  >;
  refund_requested_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What an upgrade's price was made of (packages/pricing proration.ts); amounts in cents. */
export interface PaymentProration {
  from_plan: string;
  to_plan: string;
  billing_cycle: 'monthly' | 'annual';
  period_start: string;
  period_end: string;
  priced_at: string;
  remaining_days: number;
  from_price_cents: number;
  to_price_cents: number;
  credited_cents: number;
  new_plan_cents: number;
  prorated_cents: number;
  charged_cents: number;
  minimum_applied: boolean;
  credits: number;
}

/** The test provider's PaymentIntents (statuses as Stripe names them). */
export interface TestPaymentIntentsTable {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  metadata: ColumnType<Record<string, string>, string, string>;
  idempotency_key: string | null;
  last_payment_error: string | null;
  amount_refunded: Generated<number>;
  /** The idempotency keys of the refunds made: the same key again refunds nothing more. */
  refund_keys: ColumnType<string[], string[] | undefined, string[]>;
  /** Set when the card that paid declines refunds (Stripe's test card 4000 0000 0000 5126). */
  refund_error: string | null;
  created_at: Timestamp;
}

export type SubscriptionTier = 'starter' | 'professional' | 'premium';

export interface SubscriptionsTable {
  user_id: string;
  tier: SubscriptionTier;
  billing_cycle: 'monthly' | 'annual';
  /** past_due: the renewal failed and is being retried; the plan is kept meanwhile. */
  status: SubscriptionStatus;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  /**
   * The first period's start: every period and credit month is whole months from it (clamped to
   * the month's last day), so billing keeps to its day of the month. Set with each new plan.
   */
  billing_anchor: ColumnType<Date, Date | string, Date | string>;
  cancel_at_period_end: Generated<boolean>;
  last_payment_id: string | null;
  /** The credit month now running: the period itself when billed monthly. */
  allowance_period_start: NullableTimestamp;
  allowance_period_end: NullableTimestamp;
  /** Failed charges of the renewal now due, when it is tried next, what the card said last. */
  renewal_attempts: Generated<number>;
  next_renewal_attempt_at: NullableTimestamp;
  renewal_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the owner pays that renewal at the provider (Stripe's hosted invoice page). */
  renewal_pay_url: ColumnType<string | null, string | null | undefined, string | null>;
  ended_at: NullableTimestamp;
  ended_reason: ColumnType<
    SubscriptionEndReason | null,
    SubscriptionEndReason | null | undefined,
    SubscriptionEndReason | null
  >;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SubscriptionStatus = 'active' | 'cancelling' | 'past_due' | 'ended';
export type SubscriptionEndReason = 'cancelled' | 'renewal_failed' | 'refunded';
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

/** One billing period of a subscription (a month, or a year billed annually); once per start. */
export interface SubscriptionPeriodsTable {
  id: Generated<string>;
  user_id: string;
  tier: SubscriptionTier;
  billing_cycle: 'monthly' | 'annual';
  period_start: Timestamp;
  period_end: Timestamp;
  amount_cents: number;
  /** due: charged, not paid yet (retrying); failed: never paid, the subscription ended. */
  status: 'due' | 'paid' | 'failed';
  payment_id: string | null;
  paid_at: NullableTimestamp;
  created_at: Generated<Date>;
}

/** One credit month of a paid period: its credits granted and the training allowance reset. */
export interface SubscriptionAllowancesTable {
  id: Generated<string>;
  user_id: string;
  period_id: string;
  tier: SubscriptionTier;
  month_start: Timestamp;
  month_end: Timestamp;
  credits: number;
  created_at: Generated<Date>;
}

/** The test clock: how far a user's billing time runs ahead of the wall clock (dev only). */
export interface TestClocksTable {
  user_id: string;
  /** bigint: pg hands it back as a string. */
  offset_ms: ColumnType<string, number | string | undefined, number | string>;
  updated_at: Generated<Date>;
}

/** The test payment provider's card on file per user; a test card's public facts only. */
export interface TestPaymentMethodsTable {
  user_id: string;
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** null: charging it succeeds; else the decline message. */
  charge_error: string | null;
  updated_at: Generated<Date>;
}

export interface UploadSessionsTable {
  id: Generated<string>;
  user_id: string;
  session_type: string;
  expected_files: number;
  status: ColumnType<'uploading' | 'completed', 'uploading' | 'completed' | undefined>;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  training_id: string | null;
  created_at: Timestamp;
  /** When retention deleted its photos (their training finished long enough ago). */
  photos_purged_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type PhotoCheckStatus = 'pending' | 'done' | 'failed';

export interface PhotosTable {
  id: Generated<string>;
  session_id: string;
  user_id: string;
  original_filename: string;
  original_key: string;
  optimized_key: string;
  thumbnail_key: string;
  mime_type: string;
  width: number;
  height: number;
  size_bytes: number;
  content_hash: string;
  check_status: ColumnType<PhotoCheckStatus, PhotoCheckStatus | undefined>;
  analysis: ColumnType<unknown, string | null | undefined, string | null> | null;
  checks: ColumnType<unknown, string | null | undefined, string | null> | null;
  usable: boolean | null;
  /** The stored original has been re-encoded upright without metadata (no EXIF/GPS). */
  original_clean: ColumnType<boolean, boolean | undefined>;
  /**
   * When its owner overruled the same-person check ("This is me"), and who did; null until then.
   * The photo counts toward training while same_person is its only failed check.
   */
  same_person_confirmed_at: NullableTimestamp;
  same_person_confirmed_by: string | null;
  created_at: Timestamp;
}

export type ModelStatus = 'pending' | 'training' | 'completed' | 'failed';

export interface ModelsTable {
  id: Generated<string>;
  user_id: string;
  session_id: string | null;
  name: string;
  model_type: Generated<string>;
  trigger_word: Generated<string>;
  status: ColumnType<ModelStatus, ModelStatus | undefined>;
  artifact_key: string | null;
  /** The artifact's format (engine README): 1 predates generation; null until trained. */
  artifact_format: number | null;
  /** Face descriptors (128 numbers each) of the usable photos it was trained on. */
  face_descriptors: ColumnType<number[][] | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type EngineKindName = 'studio' | 'flux';
export type TaskPriority = 'urgent' | 'high' | 'normal';
type Json = ColumnType<unknown, string | undefined, string>;

export interface TasksTable {
  id: Generated<string>;
  user_id: string;
  task_type: TaskType;
  /** The engine kind whose queue the task runs on (`studio` | `flux`). */
  engine_kind: ColumnType<EngineKindName, EngineKindName | undefined, EngineKindName>;
  priority: ColumnType<TaskPriority, TaskPriority | undefined>;
  status: ColumnType<TaskStatus, TaskStatus | undefined>;
  progress: Generated<number>;
  message: string | null;
  model_id: string | null;
  params: Json;
  result: ColumnType<unknown, string | null | undefined, string | null> | null;
  error_message: string | null;
  attempts: Generated<number>;
  gpu_seconds: Generated<number>;
  created_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  updated_at: Timestamp;
}

/** One entry of a generation: a template variant (or none) and the prompt built for it. */
export interface GenerationItem {
  template_id: string | null;
  variant: number;
  prompt: string;
  /**
   * The words of the user's prompt that shape this item's images, or false (prompt_note says
   * why); absent on generations made before prompts were reported.
   */
  prompt_applied?: false | string[];
  prompt_note?: string;
}

/** A generation's id is its task's id. */
export interface GenerationsTable {
  id: string;
  user_id: string;
  model_id: string | null;
  items: ColumnType<GenerationItem[], string, string>;
  images_per_item: Generated<number>;
  size: Generated<number>;
  seed: number;
  idempotency_key: string | null;
  /** With a key: what the request asked for, so a key reused for another request is refused. */
  request_fingerprint: string | null;
  /** The generation order that paid for it (then it reserves no credits); one per payment. */
  payment_id: string | null;
  /** Without a personal model: the checked photo it restyles. */
  source_photo_id: string | null;
  created_at: Timestamp;
}

export interface GeneratedImagesTable {
  id: Generated<string>;
  generation_id: string;
  user_id: string;
  model_id: string | null;
  /** Rank in its generation, 0 = best identity match. */
  position: number;
  template_id: string | null;
  variant: number | null;
  image_key: string;
  thumbnail_key: string;
  width: number;
  height: number;
  size_bytes: number;
  identity_score: number | null;
  identity_distance: number | null;
  favorite: Generated<boolean>;
  created_at: Timestamp;
}

export type DataExportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'expired';

/** A 'Download my data' request; its zip is `storage_key` until the purge deletes it. */
export interface DataExportsTable {
  id: Generated<string>;
  user_id: string;
  status: ColumnType<DataExportStatus, DataExportStatus | undefined, DataExportStatus>;
  progress: Generated<number>;
  storage_key: string | null;
  /** bigint: pg hands it back as a string. */
  size_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  error_message: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  expires_at: Timestamp | null;
}

/** A user's Stripe Customer (Stripe mode), made once. */
export interface StripeCustomersTable {
  user_id: string;
  customer_id: string;
  created_at: Timestamp;
}

/** A Stripe Subscription and the latest state Stripe reported for it (Stripe mode). */
export interface StripeSubscriptionsTable {
  id: string;
  user_id: string;
  customer_id: string;
  /** The catalogue item it bills: a plan id, `{plan}_annual` for annual billing. */
  item_id: string;
  /** The PaymentIntent of its first invoice. */
  first_intent_id: string;
  /** The period Stripe started it with, which its first invoice pays. */
  first_period_start: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  first_period_end: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Stripe's status name: incomplete, active, past_due, canceled... */
  status: string;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  current_period_start: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  current_period_end: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** When Stripe took the snapshot held here (its event's creation time). */
  state_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A Stripe webhook event, by its id: claimed by one delivery, processed once. */
export interface StripeEventsTable {
  id: string;
  type: string;
  claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  processed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface Database {
  users: UsersTable;
  refresh_token_families: RefreshTokenFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
  outbox_emails: OutboxEmailsTable;
  credit_ledger: CreditLedgerTable;
  payments: PaymentsTable;
  test_payment_intents: TestPaymentIntentsTable;
  subscriptions: SubscriptionsTable;
  subscription_periods: SubscriptionPeriodsTable;
  subscription_allowances: SubscriptionAllowancesTable;
  test_payment_methods: TestPaymentMethodsTable;
  test_clocks: TestClocksTable;
  upload_sessions: UploadSessionsTable;
  photos: PhotosTable;
  models: ModelsTable;
  tasks: TasksTable;
  generations: GenerationsTable;
  generated_images: GeneratedImagesTable;
  data_exports: DataExportsTable;
  stripe_customers: StripeCustomersTable;
  stripe_subscriptions: StripeSubscriptionsTable;
  stripe_events: StripeEventsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
