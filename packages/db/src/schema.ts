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

export interface Database {
  users: UsersTable;
  refresh_token_families: RefreshTokenFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
  outbox_emails: OutboxEmailsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
