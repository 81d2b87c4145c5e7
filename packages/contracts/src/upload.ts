import { z } from 'zod';

export const MIN_PHOTOS = 10;
export const MAX_PHOTOS = 20;
export const MAX_PHOTO_BYTES = 50 * 1024 * 1024;
export const RECOMMENDED_MIN_PX = 512;
export const ACCEPTED_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const ZCreateUploadSessionRequestSchema = z.strictObject({
  expected_files: z.number().int().min(1).max(MAX_PHOTOS),
  session_type: z.enum(['training']).default('training'),
});

export const ZCreateUploadSessionResponseSchema = z.object({
  session_id: z.string().uuid(),
  expires_at: z.string(),
});

export const PHOTO_CHECK_IDS = [
  'face_found',
  'single_face',
  'face_size',
  'sharpness',
  'resolution',
  'same_person',
] as const;
export type PhotoCheckId = (typeof PHOTO_CHECK_IDS)[number];

export const ZPhotoCheckSchema = z.object({
  id: z.enum(PHOTO_CHECK_IDS),
  /**
   * true: passed. false: failed, the photo is unusable. null: could not be judged (e.g. no face to
   * measure, or too few photos to compare); it does not make the photo unusable on its own.
   */
  ok: z.boolean().nullable(),
  /** One short plain-language line for the UI, e.g. "Only one face" or "We found 2 faces". */
  message: z.string(),
});
export type PhotoCheck = z.infer<typeof ZPhotoCheckSchema>;

export const ZPhotoVerdictSchema = z.object({
  /** Counts toward the photos needed to train only when true. */
  usable: z.boolean(),
  /** Always the six checks, in `PHOTO_CHECK_IDS` order. */
  checks: z.array(ZPhotoCheckSchema),
  /** What to do about each failed check, plain language, most important first. Empty when usable. */
  advice: z.array(z.string()),
});
export type PhotoVerdict = z.infer<typeof ZPhotoVerdictSchema>;

/** The advice under a photo the same-person check flagged (the photo checks write it). */
export const SAME_PERSON_ADVICE =
  "This doesn't look like the same person as in your other photos. Remove photos of anyone else.";

/** The same-person check flagged the photo: it is the check the owner may overrule ("This is me"). */
export function flaggedAsSomeoneElse(verdict: Pick<PhotoVerdict, 'checks'>): boolean {
  return verdict.checks.some((c) => c.id === 'same_person' && c.ok === false);
}

/**
 * Whether a judged photo counts toward training: it passed every check, or the same-person check
 * is the only one it failed and its owner overruled that one. Only the same-person check can be
 * overruled: it compares faces, which people know better than a model, while a blurry or tiny face
 * stays a poor photo to train on whoever says otherwise.
 */
export function countsForTraining(
  verdict: Pick<PhotoVerdict, 'usable' | 'checks'>,
  samePersonConfirmed: boolean,
): boolean {
  if (verdict.usable) return true;
  const failed = verdict.checks.filter((c) => c.ok === false);
  return samePersonConfirmed && failed.length > 0 && failed.every((c) => c.id === 'same_person');
}

export const ZUploadedPhotoSchema = z.object({
  id: z.string().uuid(),
  filename: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  size_bytes: z.number().int(),
  thumbnail_url: z.string(),
  check_status: z.enum(['pending', 'done', 'failed']),
  /** Counts toward training: every check passed, or same_person alone failed and was overruled. */
  usable: z.boolean().nullable(),
  checks: z.array(ZPhotoCheckSchema),
  advice: z.array(z.string()),
  /**
   * When the owner overruled the same-person check ("This is me"); null until then. The failed
   * same_person check stays in `checks`, as a warning the owner answered.
   */
  same_person_confirmed_at: z.string().nullable(),
  created_at: z.string(),
});
export type UploadedPhoto = z.infer<typeof ZUploadedPhotoSchema>;

export const ZUploadSessionStatusSchema = z.object({
  session_id: z.string().uuid(),
  session_type: z.string(),
  status: z.enum(['uploading', 'completed', 'expired']),
  training_id: z.string().nullable(),
  expected_files: z.number().int(),
  expires_at: z.string(),
  uploaded_files: z.number().int(),
  usable_files: z.number().int(),
  checks_pending: z.number().int(),
  min_photos: z.number().int(),
  max_photos: z.number().int(),
  photos: z.array(ZUploadedPhotoSchema),
});
export type UploadSessionStatus = z.infer<typeof ZUploadSessionStatusSchema>;

export const ZUploadSessionSummarySchema = z.object({
  status: z.enum(['uploading', 'completed', 'expired']),
  training_id: z.string().nullable(),
});

/**
 * One of the user's photo sets as the settings page lists it: what it holds now, the model
 * trained from it, and when the retention purge takes (or took) its photos.
 */
export const ZPhotoSetSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(['uploading', 'completed', 'expired']),
  /** When the set was started (its photos were uploaded then). */
  created_at: z.string(),
  /** Photos held now: none once the purge or their owner deleted them. */
  photo_count: z.number().int().min(0),
  /** When the retention purge deleted the photos; null while they are held. */
  photos_purged_at: z.string().nullable(),
  /**
   * When the retention purge will delete the photos (PHOTO_RETENTION_DAYS after the set's
   * training finished); null when none is due: never trained, training unfinished, or the
   * model trained from it still needs them.
   */
  photos_purge_due_at: z.string().nullable(),
  /** The model trained from the set (it keeps working when the set is deleted). */
  model: z
    .object({
      id: z.string().uuid(),
      name: z.string(),
      status: z.enum(['pending', 'training', 'completed', 'failed']),
    })
    .nullable(),
});
export type PhotoSet = z.infer<typeof ZPhotoSetSchema>;

/** GET /api/v1/upload/sessions: the sets holding or having held photos, newest first. */
export const ZPhotoSetListSchema = z.object({ photo_sets: z.array(ZPhotoSetSchema) });
export type PhotoSetList = z.infer<typeof ZPhotoSetListSchema>;

export const ZCompleteUploadResponseSchema = z.object({
  uploaded_files: z.number().int(),
  usable_files: z.number().int(),
  message: z.string(),
});

export const ZUserModelSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  model_type: z.string(),
  status: z.enum(['pending', 'training', 'completed', 'failed']),
  trigger_word: z.string(),
  created_at: z.string(),
});
export const ZUserModelsResponseSchema = z.object({ models: z.array(ZUserModelSchema) });

/**
 * POST /api/v1/upload/file/{session}: a multipart form whose field `file` is the photo (JPEG,
 * PNG or WebP, at most MAX_PHOTO_BYTES); checked by its bytes, not its declared type.
 */
export const ZUploadPhotoFormSchema = z.object({
  file: z.file().max(MAX_PHOTO_BYTES).describe('The photo: JPEG, PNG or WebP, up to 50 MB'),
});
