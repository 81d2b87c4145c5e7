import { randomUUID } from 'node:crypto';
import { SCHEDULED_JOBS, MESSAGES, type ModelDeletion } from '@studioshot/contracts';
import { generationPrefix, modelPrefix, type Storage } from '@studioshot/storage';
import { AppError } from '../errors.js';
import { NotYet } from '../scheduling/scheduled-jobs.js';
import type { ServedImages } from './served-images.js';
import type { DeletionRepository } from '../repositories/deletion.repository.js';
import type { RedisTracesRepository } from '../repositories/redis-traces.repository.js';
import {
  runSteps,
  type DeletionJobs,
  type DeletionRun,
  type DeletionStep,
} from './deletion-steps.js';
import type { WorkStopper } from './work-stopper.js';

/**
 * How long the call waits for the deletion before answering 202 (it goes on regardless): like the
 * Generate wait, well inside the spec client's 10 s timeout, so that a slow deletion gets its 202
 * instead of a client that gave up (and retries).
 */
export const DELETION_WAIT_MS = 8_000;

/** What a deleted model's cancelled tasks say. */
const CANCELLED_FOR_DELETION = 'Cancelled: the model was deleted';

/**
 * Deleting a model: its running or queued work is stopped first (and nothing goes on until no
 * worker holds it), then every file of it (its artifact, preview and checkpoints under
 * `users/{u}/models/{m}/`, and each generation's images and thumbnails under
 * `users/{u}/generations/{g}/`), what Redis holds about its tasks (their jobs, their progress
 * events), and finally its rows. The training slot it used is not given back. The rows go last,
 * so a run that stops anywhere leaves what the next run needs to find the rest.
 */
export class ModelDeletionService {
  constructor(
    private readonly deps: {
      deletions: DeletionRepository;
      jobs: DeletionJobs;
      stopper: WorkStopper;
      storage: Storage;
      traces: RedisTracesRepository;
      /** The model's generated images are refused by every process before its rows go. */
      servedImages: Pick<ServedImages, 'withdraw'>;
      waitMs?: number;
    },
  ) {}

  /** DELETE /api/v1/models/{id}: queues the deletion and waits a little for it. */
  async request(userId: string, modelId: string): Promise<ModelDeletion> {
    const model = await this.deps.deletions.findModel(modelId);
    // Another user's model is answered exactly like a missing one.
    if (!model || model.user_id !== userId) throw new AppError('not_found', MESSAGES.modelNotFound);
    const jobId = await this.enqueue(modelId);
    const done = await this.deps.jobs.finished(jobId, this.deps.waitMs ?? DELETION_WAIT_MS);
    return done
      ? { id: modelId, status: 'deleted', message: MESSAGES.modelDeleted }
      : { id: modelId, status: 'deleting', message: MESSAGES.modelDeleting };
  }

  /**
   * Queues the model's deletion job; answers its id. Each call is its own run: the steps being
   * idempotent, two runs do no harm.
   */
  enqueue(modelId: string): Promise<string> {
    return this.deps.jobs.at(SCHEDULED_JOBS.modelDelete, {
      id: randomUUID(),
      runAt: new Date(),
      data: { model_id: modelId },
    });
  }

  /** The job: each step idempotent, so a run after a crash finishes what one before began. */
  async run(modelId: string, run: DeletionRun): Promise<void> {
    const model = await this.deps.deletions.findModel(modelId);
    if (!model) return;
    await runSteps(
      this.steps,
      { modelId, userId: model.user_id, artifactKey: model.artifact_key },
      run,
    );
  }

  private readonly steps: readonly DeletionStep<ModelContext>[] = [
    {
      name: 'work',
      run: async ({ modelId }) => {
        const { deletions, stopper } = this.deps;
        const work = await deletions.modelWork(modelId);
        await stopper.stop(work, { reason: CANCELLED_FOR_DELETION, keepTrainingSlot: true });
        await stopper.assertReleased(work);
      },
    },
    {
      name: 'storage',
      run: async ({ modelId, userId, artifactKey }) => {
        const { deletions, storage } = this.deps;
        await storage.deletePrefix(modelPrefix(userId, modelId));
        // A key from before the per-person layout lies elsewhere: it goes by its own key.
        if (artifactKey) await storage.delete(artifactKey);
        for (const generation of await deletions.modelGenerations(modelId)) {
          await storage.deletePrefix(generationPrefix(userId, generation.id));
          for (const key of generation.keys) await storage.delete(key);
        }
      },
    },
    {
      name: 'redis',
      run: async ({ modelId }) => {
        const { deletions, traces, servedImages } = this.deps;
        // Every process refuses the model's images from now on, from memory; the scrub below
        // then removes the announcement's trace from Redis with the rest.
        await servedImages.withdraw([modelId]);
        const work = await deletions.modelWork(modelId);
        await traces.scrub([modelId, ...work.map((task) => task.id)]);
      },
    },
    {
      name: 'database',
      run: async ({ modelId }) => {
        // A generation accepted after the work was stopped: stopped on the next run.
        if (!(await this.deps.deletions.deleteModelRows(modelId)))
          throw new NotYet(`model ${modelId} has new work to stop first`);
      },
    },
  ];

  get stepCount(): number {
    return this.steps.length;
  }
}

interface ModelContext {
  modelId: string;
  userId: string;
  artifactKey: string | null;
}
