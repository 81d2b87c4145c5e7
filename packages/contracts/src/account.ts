import { z } from 'zod';
import { ZNewPasswordSchema } from './auth.js';
import { MESSAGES } from './messages.js';
import { NO_NUL_PATTERN, NUL_REFUSED } from './text.js';

// The account settings page: sign-ins, password change, 'Download my data', and the privacy
// facts the privacy page states.

/** How long a download link of a finished export works. */
export const EXPORT_LINK_MINUTES = 15;
/** How long a finished export's zip is kept before the purge deletes it. */
export const EXPORT_KEPT_HOURS = 24;

/** One sign-in (a refresh-token family): where and when it started, when it was last used. */
export const ZSignInSessionSchema = z.object({
  id: z.string().uuid(),
  /** Browser and system read from the user agent ('Chrome on macOS'), or 'Unknown device'. */
  device: z.string(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  /** The sign-in this request was made with. */
  current: z.boolean(),
});
export type SignInSession = z.infer<typeof ZSignInSessionSchema>;

export const ZSignInSessionListSchema = z.object({
  /** Live sign-ins, the current one first, then the most recently used. */
  sessions: z.array(ZSignInSessionSchema),
});
export type SignInSessionList = z.infer<typeof ZSignInSessionListSchema>;

export const ZSignOutResponseSchema = z.object({
  message: z.string(),
  /** How many sign-ins this ended. */
  signed_out: z.number().int().min(0),
});
export type SignOutResponse = z.infer<typeof ZSignOutResponseSchema>;

export const ZChangePasswordRequestSchema = z.strictObject({
  current_password: z
    .string({ error: MESSAGES.currentPasswordRequired })
    .min(1, { error: MESSAGES.currentPasswordRequired })
    .max(1024)
    .regex(NO_NUL_PATTERN, NUL_REFUSED),
  new_password: ZNewPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof ZChangePasswordRequestSchema>;

export const DATA_EXPORT_STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'expired',
] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** A 'Download my data' request as the settings page follows it. */
export const ZDataExportSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(DATA_EXPORT_STATUSES),
  progress: z.number().int().min(0).max(100),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  /** When the zip is deleted (a day after it was built). */
  expires_at: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  /** A link signed for this export, working for EXPORT_LINK_MINUTES; null until it is built. */
  download_url: z.string().nullable(),
  download_expires_at: z.string().nullable(),
  error_message: z.string().nullable(),
});
export type DataExport = z.infer<typeof ZDataExportSchema>;

export const ZDataExportListSchema = z.object({
  /** The latest exports, newest first. */
  exports: z.array(ZDataExportSchema),
});
export type DataExportList = z.infer<typeof ZDataExportListSchema>;

/** The numbers the privacy page states, from the server's configuration. */
export const ZPrivacyFactsSchema = z.object({
  /** Training photos are deleted this many days after their training finishes. */
  photo_retention_days: z.number().int().positive(),
  export_link_minutes: z.number().int().positive(),
  export_kept_hours: z.number().int().positive(),
  /** A sign-in ends by itself this many days after it started. */
  sign_in_days: z.number().int().positive(),
});
export type PrivacyFacts = z.infer<typeof ZPrivacyFactsSchema>;

/** The export job's data: one job per export, run by the API's scheduled-jobs worker. */
export const ZDataExportJobSchema = z.strictObject({ export_id: z.string().uuid() });
export type DataExportJob = z.infer<typeof ZDataExportJobSchema>;
