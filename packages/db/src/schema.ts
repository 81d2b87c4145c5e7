import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// The database schema, declared once. Migrations in ./migrations must keep this in step.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type PlanType = 'free' | 'starter' | 'professional' | 'premium';
export type Gender = 'male' | 'female';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  name: string;
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
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One sign-in: every refresh token rotated from one login shares a family. */
export interface RefreshTokenFamiliesTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  /** Absolute expiry: rotation never extends a session past this. */
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
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

export type PaymentKind = 'credits' | 'subscription' | 'upgrade' | 'training_slots' | 'generation';
export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';

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
  created_at: Timestamp;
  updated_at: Timestamp;
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
  created_at: Timestamp;
}

export type SubscriptionTier = 'starter' | 'professional' | 'premium';

export interface SubscriptionsTable {
  user_id: string;
  tier: SubscriptionTier;
  billing_cycle: 'monthly' | 'annual';
  status: 'active' | 'cancelling' | 'ended';
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  cancel_at_period_end: Generated<boolean>;
  last_payment_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
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
export type TaskType = 'training' | 'generation' | 'batch_generation';
export type TaskPriority = 'urgent' | 'high' | 'normal';
export type TaskStatus = 'pending' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
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
  upload_sessions: UploadSessionsTable;
  photos: PhotosTable;
  models: ModelsTable;
  tasks: TasksTable;
  generations: GenerationsTable;
  generated_images: GeneratedImagesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
