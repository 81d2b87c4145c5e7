import {
  MAX_PHOTO_BYTES,
  MESSAGES,
  ZCreateUploadSessionRequestSchema,
} from '@studioshot/contracts';
import {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import multer from 'multer';
import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { UploadsService } from '../services/uploads.service.js';

/** A malformed id names nothing: answered like a missing session or photo. */
function idParam(req: Request, missing: string): string {
  const id = z.uuid().safeParse(req.params.id);
  if (!id.success) throw new AppError('not_found', missing);
  return id.data;
}
const sessionId = (req: Request) => idParam(req, MESSAGES.sessionNotFound);
const photoId = (req: Request) => idParam(req, MESSAGES.photoNotFound);

export function uploadRoutes(deps: {
  uploads: UploadsService;
  requireAuth: RequestHandler;
  tmpDir: string;
  /** Streams a stored object to the response. */
  sendStored: (key: string, res: Response) => Promise<void>;
}): Router {
  const { uploads, requireAuth } = deps;
  const router = Router();
  // Straight to disk, never whole files in memory; the size limit is enforced while streaming.
  const receive = multer({
    dest: deps.tmpDir,
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 4, parts: 5 },
  }).single('file');

  const receiveFile = (req: Request, res: Response, next: NextFunction) => {
    receive(req, res, (error: unknown) => {
      if (!error) return next();
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE')
          return next(new AppError('payload_too_large', MESSAGES.fileTooLarge));
        if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT') {
          return next(new AppError('validation_error', MESSAGES.noFile));
        }
        return next(new AppError('bad_request', MESSAGES.uploadFailed));
      }
      next(error);
    });
  };

  router.get('/api/v1/upload/user-models', requireAuth, async (req, res) => {
    res.json(await uploads.userModels(authOf(req).userId));
  });

  router.post('/api/v1/upload/create-session', requireAuth, async (req, res) => {
    const body = parse(ZCreateUploadSessionRequestSchema, req.body);
    res
      .status(201)
      .json(
        await uploads.createSession(authOf(req).userId, body.expected_files, body.session_type),
      );
  });

  router.post(
    '/api/v1/upload/file/:id',
    requireAuth,
    // Refuse before reading the body when the session cannot take photos.
    async (req, _res, next) => {
      await uploads.openSessionFor(authOf(req).userId, sessionId(req));
      next();
    },
    receiveFile,
    async (req, res) => {
      const file = req.file;
      try {
        if (!file) throw new AppError('validation_error', MESSAGES.noFile);
        const photo = await uploads.addPhoto(authOf(req).userId, sessionId(req), file);
        res.status(201).json(photo);
      } finally {
        if (file) await unlink(file.path).catch(() => undefined);
      }
    },
  );

  router.delete('/api/v1/upload/photos/:id', requireAuth, async (req, res) => {
    await uploads.removePhoto(authOf(req).userId, photoId(req));
    res.status(204).end();
  });

  router.get('/api/v1/upload/photos/:id/thumbnail', async (req, res) => {
    const id = photoId(req);
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    const key = await uploads.thumbnailKey(id, token);
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, max-age=3600');
    await deps.sendStored(key, res);
  });

  router.post('/api/v1/upload/complete/:id', requireAuth, async (req, res) => {
    res.json(await uploads.complete(authOf(req).userId, sessionId(req)));
  });

  router.get('/api/v1/upload/session/:id/status', requireAuth, async (req, res) => {
    res.json(await uploads.status(authOf(req).userId, sessionId(req)));
  });

  router.get('/api/v1/upload/sessions/:id', requireAuth, async (req, res) => {
    res.json(await uploads.summary(authOf(req).userId, sessionId(req)));
  });

  return router;
}
