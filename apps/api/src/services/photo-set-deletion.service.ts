import { randomUUID } from 'node:crypto';
import { SCHEDULED_JOBS, MESSAGES, type PhotoSetDeletion } from '@studioshot/contracts';
import { photoSetPrefix, type Storage } from '@studioshot/storage';
import { AppError, TRAINING_RETRY_AFTER_S } from '../errors.js';
import { NotYet } from '../scheduling/scheduled-jobs.js';
import type { DeletionRepository } from '../repositories/deletion.repository.js';
import type { RedisTracesRepository } from '../repositories/redis-traces.repository.js';
import {
  runSteps,
  type DeletionJobs,
  type DeletionRun,
  type DeletionStep,
} from './deletion-steps.js';
import { DELETION_WAIT_MS } from './model-deletion.service.js';

/**
 * Deleting a photo set (an upload session): before or after training, every photo and every
 * copy of it (original, optimised, thumbnail under `users/{u}/photos/{session}/`), their checks
 * queued in Redis, and the rows. Not while a training from the set is unfinished: it reads them.
 * Models trained from the set keep working (they hold what generation needs) and forget it.
 */
export class PhotoSetDeletionService {
  constructor(
    private readonly deps: {
      deletions: DeletionRepository;
      jobs: DeletionJobs;
      storage: Storage;
      traces: RedisTracesRepository;
      waitMs?: number;
    },
  ) {}

  /** DELETE /api/v1/upload/sessions/{id}. */
  async request(userId: string, sessionId: string): Promise<PhotoSetDeletion> {
    const session = await this.deps.deletions.findSession(sessionId);
    if (!session || session.user_id !== userId)
      throw new AppError('not_found', MESSAGES.sessionNotFound);
    if (await this.deps.deletions.sessionInTraining(sessionId))
      throw new AppError('conflict', MESSAGES.photoSetInTraining, {
        retryAfterSeconds: TRAINING_RETRY_AFTER_S,
      });
    const jobId = await this.enqueue(sessionId);
    const done = await this.deps.jobs.finished(jobId, this.deps.waitMs ?? DELETION_WAIT_MS);
    return done
      ? { id: sessionId, status: 'deleted', message: MESSAGES.photoSetDeleted }
      : { id: sessionId, status: 'deleting', message: MESSAGES.photoSetDeleting };
  }

  /** Queues the set's deletion job (each call its own run, as a model's); answers its id. */
  enqueue(sessionId: string): Promise<string> {
    return this.deps.jobs.at(SCHEDULED_JOBS.photoSetDelete, {
      id: randomUUID(),
      runAt: new Date(),
      data: { session_id: sessionId },
    });
  }

  /** The job: close the set, delete its files, its traces in Redis, then its rows. */
  async run(sessionId: string, run: DeletionRun): Promise<void> {
    const session = await this.deps.deletions.findSession(sessionId);
    if (!session) return;
    await runSteps(this.steps, { sessionId, userId: session.user_id }, run);
  }

  private readonly steps: readonly DeletionStep<{ sessionId: string; userId: string }>[] = [
    {
      name: 'close',
      run: async ({ sessionId }) => {
        const { deletions } = this.deps;
        await deletions.closeSession(sessionId);
        // A training started from the set since the call: its photos go once it has read them.
        if (await deletions.sessionInTraining(sessionId))
          throw new NotYet(`a training still reads photo set ${sessionId}`);
      },
    },
    {
      name: 'storage',
      run: async ({ sessionId, userId }) => {
        const { deletions, storage } = this.deps;
        await storage.deletePrefix(photoSetPrefix(userId, sessionId));
        // Keys from before the per-person layout lie elsewhere: each goes by its own key.
        for (const photo of await deletions.sessionPhotos(sessionId))
          for (const key of [photo.original_key, photo.optimized_key, photo.thumbnail_key])
            await storage.delete(key);
      },
    },
    {
      name: 'redis',
      run: async ({ sessionId }) => {
        const photos = await this.deps.deletions.sessionPhotos(sessionId);
        await this.deps.traces.scrub([sessionId, ...photos.map((photo) => photo.id)]);
      },
    },
    {
      name: 'database',
      run: async ({ sessionId }) => this.deps.deletions.deleteSessionRows(sessionId),
    },
  ];

  get stepCount(): number {
    return this.steps.length;
  }
}
