import {
  MAX_PHOTO_BYTES,
  MESSAGES,
  ZCompleteUploadResponseSchema,
  ZCreateUploadSessionRequestSchema,
  ZCreateUploadSessionResponseSchema,
  ZPhotoSetListSchema,
  ZUploadedPhotoSchema,
  ZUploadPhotoFormSchema,
  ZUploadSessionStatusSchema,
  ZUploadSessionSummarySchema,
  ZUserModelsResponseSchema,
} from '@studioshot/contracts';
import type { RequestHandler, Response } from 'express';
import multer from 'multer';
import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { DeclaringRouter } from '../http/declare.js';
import { authOf } from '../middleware/auth.js';
import { multipartBody } from '../middleware/multipart.js';
import type { PhotoSetsService } from '../services/photo-sets.service.js';
import type { UploadsService } from '../services/uploads.service.js';

/** A malformed id names nothing: answered like a missing session or photo. */
const idParams = z.object({ id: z.uuid() });
const notFoundSession = { params: MESSAGES.sessionNotFound };
const notFoundPhoto = { params: MESSAGES.photoNotFound };

export function uploadRoutes(
  api: DeclaringRouter,
  deps: {
    uploads: UploadsService;
    photoSets: PhotoSetsService;
    tmpDir: string;
    /** Streams a stored object to the response. */
    sendStored: (key: string, res: Response) => Promise<void>;
  },
): void {
  const { uploads } = deps;
  // Straight to disk, never whole files in memory; the size limit is enforced while streaming.
  const receive = multer({
    dest: deps.tmpDir,
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 4, parts: 5 },
  }).single('file');

  const receiveFile = multipartBody(receive, (error) => {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new AppError('payload_too_large', MESSAGES.fileTooLarge);
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT')
      return new AppError('validation_error', MESSAGES.noFile);
    return new AppError('bad_request', MESSAGES.uploadFailed);
  });

  // Refuse before reading the body when the session cannot take photos.
  const sessionOpen: RequestHandler = async (req, _res, next) => {
    await uploads.openSessionFor(authOf(req).userId, String(req.params.id));
    next();
  };

  api.route(
    {
      method: 'get',
      path: '/api/v1/upload/user-models',
      summary: "The user's models",
      tag: 'upload',
      auth: 'required',
      responses: { 200: ZUserModelsResponseSchema },
    },
    ({ userId }) => uploads.userModels(userId),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/upload/create-session',
      summary: 'Open an upload session for a training set (24 hours)',
      tag: 'upload',
      auth: 'required',
      body: ZCreateUploadSessionRequestSchema,
      responses: { 201: ZCreateUploadSessionResponseSchema },
      errors: [403],
    },
    ({ userId, body }) => uploads.createSession(userId, body.expected_files, body.session_type),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/upload/file/:id',
      summary: 'Add a photo to an open session',
      description:
        'The session (the owner, open, not expired) is checked before the body is read. The photo is checked by its bytes (type, pixel count before any decode), stored without metadata (orientation applied), and queued for the photo checks (`check_status` pending).',
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundSession,
      before: [sessionOpen, receiveFile],
      body: { schema: ZUploadPhotoFormSchema, type: 'multipart/form-data', validate: false },
      responses: { 201: ZUploadedPhotoSchema },
      errors: [409, 410, 415],
    },
    async ({ req, userId, params }) => {
      const file = req.file;
      try {
        if (!file) throw new AppError('validation_error', MESSAGES.noFile);
        return await uploads.addPhoto(userId, params.id, file);
      } finally {
        if (file) await unlink(file.path).catch(() => undefined);
      }
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/upload/photos/:id',
      summary: 'Remove a photo from a session still open',
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundPhoto,
      responses: { 204: { description: 'Removed' } },
      errors: [409],
    },
    async ({ res, userId, params }) => {
      await uploads.removePhoto(userId, params.id);
      res.status(204).end();
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/upload/photos/:id/confirm-same-person',
      summary: '"This is me": overrule the same-person check on one of your photos',
      description:
        'An addition to the contract. For a photo the same-person check flagged ("This doesn\'t look like the same person as in your other photos"), in a session still open. Records who confirmed it and when (`same_person_confirmed_at`); the photo then counts for training (`usable`) when that check is the only one it failed, through every later judging of the set. Idempotent: a repeat answers the photo as the first did. 409 for a photo the check did not flag or has not judged yet, or a completed session; 404 for anyone else\'s photo.',
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundPhoto,
      responses: { 200: ZUploadedPhotoSchema },
      errors: [409, 410],
    },
    ({ userId, params }) => uploads.confirmSamePerson(userId, params.id),
  );

  // No bearer token: <img src> carries a short-lived token signed for this one thumbnail.
  api.route(
    {
      method: 'get',
      path: '/api/v1/upload/photos/:id/thumbnail',
      summary: "A photo's thumbnail (JPEG), with the short-lived token signed for it",
      tag: 'upload',
      auth: 'none',
      params: idParams,
      notFound: notFoundPhoto,
      query: z.object({
        // Anything but one string is no token (and is refused as one).
        token: z
          .string()
          .optional()
          .catch(undefined)
          .describe("The token in the photo's `thumbnail_url`"),
      }),
      responses: { 200: { description: 'The JPEG', contentType: 'image/jpeg' } },
      errors: [403],
    },
    async ({ res, params, query }) => {
      const key = await uploads.thumbnailKey(params.id, query.token);
      res.setHeader('Content-Type', 'image/jpeg');
      res.setHeader('Cache-Control', 'private, max-age=3600');
      await deps.sendStored(key, res);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/upload/complete/:id',
      summary: 'Close the set for training: every check done, at least 10 usable photos',
      description:
        "Waits for photo checks still running, up to UPLOAD_CHECKS_WAIT_MS (8 s, inside the spec client's 10 s timeout); if some still are, 409 with Retry-After (seconds).",
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundSession,
      responses: { 200: ZCompleteUploadResponseSchema },
      errors: [409, 410],
    },
    ({ userId, params }) => uploads.complete(userId, params.id),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/upload/session/:id/status',
      summary: 'A session, its photos and their checks',
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundSession,
      responses: { 200: ZUploadSessionStatusSchema },
    },
    ({ userId, params }) => uploads.status(userId, params.id),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/upload/sessions',
      summary: "The user's photo sets: photos held, the model trained, when the photos are purged",
      description:
        'Newest first: every set that holds photos, had them purged, or trained a model. `photos_purge_due_at` is when the retention purge will delete the photos (PHOTO_RETENTION_DAYS after the training finished); `photos_purged_at` when it did. Delete a set sooner with DELETE /api/v1/upload/sessions/{id}.',
      tag: 'upload',
      auth: 'required',
      responses: { 200: ZPhotoSetListSchema },
    },
    async ({ userId }) => ({ photo_sets: await deps.photoSets.list(userId) }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/upload/sessions/:id',
      summary: "A session's status and its training, if any",
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: notFoundSession,
      responses: { 200: ZUploadSessionSummarySchema },
    },
    ({ userId, params }) => uploads.summary(userId, params.id),
  );
}
