import {
  countsForTraining,
  flaggedAsSomeoneElse,
  MAX_PHOTOS,
  MESSAGES,
  MIN_PHOTOS,
  ZPhotoVerdictSchema,
  type PhotoVerdict,
  type UploadedPhoto,
  type UploadSessionStatus,
  type UserModel,
} from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import type {
  Model,
  Photo,
  UploadSession,
  UploadsRepository,
} from '../repositories/uploads.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { photoKeys, type Storage } from '@studioshot/storage';
import type { ImageTokens } from './image-tokens.js';
import type { ProcessedPhoto } from './photo-processing.js';

const SESSION_TTL_MS = 2 * 60 * 60 * 1000;

export interface PhotoPipeline {
  /** The photo processed: of its answer the upload flow reads these. */
  process(
    uploadedPath: string,
  ): Promise<
    Pick<
      ProcessedPhoto,
      | 'mimeType'
      | 'extension'
      | 'width'
      | 'height'
      | 'sizeBytes'
      | 'contentHash'
      | 'files'
      | 'cleanup'
    >
  >;
}

/** When a completion that found checks still running is worth trying again. */
const CHECKS_RETRY_AFTER_S = 5;

export class UploadsService {
  constructor(
    private readonly deps: {
      uploads: UploadsRepository;
      users: UsersRepository;
      jobs: JobQueueRepository;
      pipeline: PhotoPipeline;
      store: Storage;
      imageTokens: ImageTokens;
      /** How long completing a session waits for its photos' checks before answering 409. */
      checksWaitMs: number;
      logger: Logger;
    },
  ) {}

  async createSession(userId: string, expectedFiles: number, sessionType: string) {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    if (user.training_limit <= 0) throw new AppError('forbidden', MESSAGES.planRequired);
    if (user.models_trained >= user.training_limit)
      throw new AppError('forbidden', MESSAGES.trainingLimit);
    const session = await this.deps.uploads.createSession({
      userId,
      sessionType,
      expectedFiles,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    });
    return { session_id: session.id, expires_at: session.expires_at.toISOString() };
  }

  /** The session, if it is the caller's and still takes photos; the spec's messages otherwise. */
  async openSessionFor(userId: string, sessionId: string): Promise<UploadSession> {
    const session = await this.ownedSession(userId, sessionId);
    if (session.status !== 'uploading')
      throw new AppError('conflict', MESSAGES.sessionAlreadyComplete);
    if (session.expires_at.getTime() <= Date.now())
      throw new AppError('gone', MESSAGES.sessionExpired);
    return session;
  }

  async addPhoto(
    userId: string,
    sessionId: string,
    file: { path: string; originalname: string },
  ): Promise<UploadedPhoto> {
    const session = await this.openSessionFor(userId, sessionId);
    const processed = await this.deps.pipeline.process(file.path);
    const photoId = randomUUID();
    const keys = photoKeys(userId, session.id, photoId, processed.extension);
    try {
      await Promise.all([
        this.deps.store.putFile(keys.original, processed.files.original, {
          contentType: processed.mimeType,
        }),
        this.deps.store.putFile(keys.optimized, processed.files.optimized, {
          contentType: 'image/jpeg',
        }),
        this.deps.store.putFile(keys.thumbnail, processed.files.thumbnail, {
          contentType: 'image/jpeg',
        }),
      ]);
      const added = await this.deps.uploads.addPhoto(
        session.id,
        (locked, count) => {
          if (locked.status !== 'uploading')
            throw new AppError('conflict', MESSAGES.sessionAlreadyComplete);
          if (locked.expires_at.getTime() <= Date.now())
            throw new AppError('gone', MESSAGES.sessionExpired);
          if (count >= MAX_PHOTOS) throw new AppError('conflict', MESSAGES.tooManyPhotos);
        },
        {
          id: photoId,
          user_id: userId,
          original_filename: displayName(file.originalname),
          original_key: keys.original,
          optimized_key: keys.optimized,
          thumbnail_key: keys.thumbnail,
          mime_type: processed.mimeType,
          width: processed.width,
          height: processed.height,
          size_bytes: processed.sizeBytes,
          content_hash: processed.contentHash,
          // The pipeline stored it upright and without metadata: nothing for the cleanup to do.
          original_clean: true,
        },
      );
      if (added === 'duplicate') throw new AppError('conflict', MESSAGES.duplicatePhoto);
      await this.deps.jobs.enqueuePhotoCheck({ photo_id: added.id, session_id: session.id });
      return this.toDto(added);
    } catch (error) {
      await Promise.allSettled(Object.values(keys).map((key) => this.deps.store.delete(key)));
      throw error;
    } finally {
      await processed.cleanup();
    }
  }

  async removePhoto(userId: string, photoId: string): Promise<void> {
    const photo = await this.deps.uploads.deletePhoto(photoId, userId);
    if (photo === 'not_found') throw new AppError('not_found', MESSAGES.photoNotFound);
    if (photo === 'closed') throw new AppError('conflict', MESSAGES.sessionAlreadyComplete);
    await this.deps.jobs.enqueueSetRejudge(photo.session_id);
    await Promise.allSettled(
      [photo.original_key, photo.optimized_key, photo.thumbnail_key].map((key) =>
        this.deps.store.delete(key),
      ),
    );
  }

  /**
   * "This is me": the owner overrules the same-person check on one photo of a set still open. The
   * photo then counts for training if that check was the only one it failed. Idempotent; refused
   * for a photo the check did not flag (or has not judged yet), and answered like a missing photo
   * for anyone but its owner.
   */
  async confirmSamePerson(userId: string, photoId: string): Promise<UploadedPhoto> {
    const photo = await this.deps.uploads.confirmSamePerson(photoId, userId, (session, locked) => {
      if (session.status !== 'uploading')
        throw new AppError('conflict', MESSAGES.sessionAlreadyComplete);
      if (session.expires_at.getTime() <= Date.now())
        throw new AppError('gone', MESSAGES.sessionExpired);
      const verdict = locked.check_status === 'done' ? storedVerdict(locked) : undefined;
      if (!verdict || !flaggedAsSomeoneElse(verdict))
        throw new AppError('conflict', MESSAGES.photoNotFlagged);
      return countsForTraining(verdict, true);
    });
    if (photo === 'not_found') throw new AppError('not_found', MESSAGES.photoNotFound);
    return this.toDto(photo);
  }

  async status(userId: string, sessionId: string): Promise<UploadSessionStatus> {
    const session = await this.ownedSession(userId, sessionId);
    const photos = (await this.deps.uploads.listPhotos(session.id)).map((p) => this.toDto(p));
    return {
      session_id: session.id,
      session_type: session.session_type,
      status: effectiveStatus(session),
      training_id: session.training_id,
      expected_files: session.expected_files,
      expires_at: session.expires_at.toISOString(),
      uploaded_files: photos.length,
      usable_files: photos.filter((p) => p.usable === true).length,
      checks_pending: photos.filter((p) => p.check_status === 'pending').length,
      min_photos: MIN_PHOTOS,
      max_photos: MAX_PHOTOS,
      photos,
    };
  }

  async summary(userId: string, sessionId: string) {
    const session = await this.ownedSession(userId, sessionId);
    return { status: effectiveStatus(session), training_id: session.training_id };
  }

  /**
   * Closes the set for training: every check done, and at least 10 usable photos. Counted and
   * closed under the session's lock, so photos deleted meanwhile cannot leave fewer.
   */
  /**
   * Completes the session once every photo's check is done: waits for checks still running (up
   * to `checksWaitMs`, inside the spec client's 10 s timeout), then answers 409 with Retry-After
   * if some still are.
   */
  async complete(userId: string, sessionId: string) {
    await this.openSessionFor(userId, sessionId);
    const pending = (await this.deps.uploads.listPhotos(sessionId))
      .filter((p) => p.check_status === 'pending')
      .map((p) => p.id);
    await this.deps.jobs.photoChecksSettled(pending, this.deps.checksWaitMs);
    const { photos } = await this.deps.uploads.completeSession(sessionId, (locked, photos) => {
      if (locked.status !== 'uploading')
        throw new AppError('conflict', MESSAGES.sessionAlreadyComplete);
      if (locked.expires_at.getTime() <= Date.now())
        throw new AppError('gone', MESSAGES.sessionExpired);
      if (photos.some((p) => p.check_status === 'pending'))
        throw new AppError('conflict', MESSAGES.checksStillRunning, {
          retryAfterSeconds: CHECKS_RETRY_AFTER_S,
        });
      const usable = photos.filter((p) => p.usable === true).length;
      if (usable < MIN_PHOTOS) {
        throw new AppError(
          'bad_request',
          `${MESSAGES.minPhotos}: ${usable} of your photos can be used so far.`,
        );
      }
    });
    const usable = photos.filter((p) => p.usable === true).length;
    return {
      uploaded_files: photos.length,
      usable_files: usable,
      message: `Upload complete: ${usable} photos are ready for training.`,
    };
  }

  async userModels(userId: string): Promise<{ models: UserModel[] }> {
    const models = await this.deps.uploads.listModels(userId);
    return { models: models.map(toUserModel) };
  }

  /** The thumbnail of a photo, for a request carrying that photo's image token. */
  async thumbnailKey(photoId: string, token: string | undefined): Promise<string> {
    if (!token || !this.deps.imageTokens.verify(photoId, token))
      throw new AppError('not_found', MESSAGES.photoNotFound);
    const photo = await this.deps.uploads.findPhoto(photoId);
    if (!photo) throw new AppError('not_found', MESSAGES.photoNotFound);
    return photo.thumbnail_key;
  }

  private async ownedSession(userId: string, sessionId: string): Promise<UploadSession> {
    const session = await this.deps.uploads.findSession(sessionId);
    // Another user's session is answered exactly like a missing one.
    if (!session || session.user_id !== userId)
      throw new AppError('not_found', MESSAGES.sessionNotFound);
    return session;
  }

  private toDto(photo: Photo): UploadedPhoto {
    const verdict = storedVerdict(photo);
    return {
      id: photo.id,
      filename: photo.original_filename,
      width: photo.width,
      height: photo.height,
      size_bytes: Number(photo.size_bytes),
      thumbnail_url: `/api/v1/upload/photos/${photo.id}/thumbnail?token=${this.deps.imageTokens.sign(photo.id)}`,
      check_status: photo.check_status,
      usable: photo.usable,
      checks: verdict?.checks ?? [],
      advice: verdict?.advice ?? [],
      same_person_confirmed_at: photo.same_person_confirmed_at?.toISOString() ?? null,
      created_at: photo.created_at.toISOString(),
    };
  }
}

/** The photo checks' verdict as the worker stored it; undefined before it is judged. */
function storedVerdict(photo: Pick<Photo, 'checks'>): PhotoVerdict | undefined {
  if (!photo.checks) return undefined;
  const parsed = ZPhotoVerdictSchema.safeParse(photo.checks);
  return parsed.success ? parsed.data : undefined;
}

/** The Model entity of the spec, derived from the row. */
export function toUserModel(model: Model): UserModel {
  return {
    id: model.id,
    name: model.name,
    model_type: model.model_type,
    status: model.status,
    trigger_word: model.trigger_word,
    created_at: model.created_at.toISOString(),
  };
}

export function effectiveStatus(
  session: Pick<UploadSession, 'status' | 'expires_at'>,
): 'uploading' | 'completed' | 'expired' {
  if (session.status === 'completed') return 'completed';
  return session.expires_at.getTime() <= Date.now() ? 'expired' : 'uploading';
}

/** Client file names are only ever displayed: strip paths and control characters, bound the length. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'photo').slice(0, 200);
}
