import type { JOB_NAMES, TrainParams } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import { ObjectNotFoundError, type LocalFile, type Storage } from '@studioshot/storage';
import { UnrecoverableError, WaitingError } from 'bullmq';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  EngineFailure,
  type EngineArtifact,
  type EngineProcess,
  type EngineRunResult,
} from '../engine/engine-process.js';
import { isFinalAttempt, type JobContext, type JobHandler } from '../jobs/registry.js';
import { TaskStopped, type TaskCancellations } from '../jobs/task-cancellations.js';
import { TaskProgressReporter } from './task-progress.js';
import { createTrainingWorkspace } from './training-workspaces.js';
import {
  completeTraining,
  failTraining,
  claimTrainingTask,
  requeueTask,
  usablePhotos,
  type TrainingTask,
} from './training-store.js';

export interface TrainModelDeps {
  db: Db;
  storage: Storage;
  engines: { take(): Promise<EngineProcess> };
  cancellations: Pick<TaskCancellations, 'track'>;
  /** Parent of each training's temporary directory. */
  tmpDir: string;
  /** A training (download, engine, upload) running longer than this is stopped and retried. */
  timeoutMs: number;
}

// Progress bands: downloading 0-5 %, the engine's steps 5-95 %, storing 95-100 %.
const DOWNLOAD_END = 5;
const ENGINE_END = 95;

const MESSAGES = {
  preparing: 'Preparing your photos',
  saving: 'Saving your model',
  completed: 'Training complete',
  failed: 'Training failed',
  cancelled: 'Training was cancelled',
  cancelledError: 'Training was cancelled by an operator.',
  requeued: 'Waiting for a worker: the previous one shut down',
  noPhotos: 'This upload session has no usable photos to train on.',
  photoMissing: 'One of your photos could not be read from storage. Upload your photos again.',
  noModel: 'The training engine finished without producing a model.',
  internal: 'Training stopped because of an internal error.',
  abandoned: 'Training stopped because the machine running it stopped responding.',
} as const;

/** A problem with what the user gave us: retrying cannot help. */
class TrainingInputError extends Error {
  override name = 'TrainingInputError';
}

/**
 * `model.train {task_id}`: trains the task's model on its session's usable photos with a fresh
 * engine process, stores the artifacts under fixed keys and completes task and model together.
 * Idempotent: a task already final is left alone, a re-run overwrites the same objects, and every
 * state change is a conditional update (see training-store.ts).
 */
export function trainModelHandler(deps: TrainModelDeps): JobHandler<typeof JOB_NAMES.trainModel> {
  return {
    async run({ task_id }, context) {
      const task = await claimTrainingTask(deps.db, task_id, MESSAGES.preparing);
      if (!task) {
        context.logger.info({ taskId: task_id }, 'training task missing or already final: skipped');
        return;
      }
      await new TrainingRun(deps, task, context).execute();
    },
    // A run that failed settles its task itself; this is for a job BullMQ gave up on without a
    // run to do it (its workers kept dying). A no-op for a task already final.
    async failedForGood({ task_id }, logger) {
      const failed = await failTraining(deps.db, {
        taskId: task_id,
        status: 'failed',
        message: MESSAGES.failed,
        errorMessage: MESSAGES.abandoned,
        gpuSeconds: 0,
      });
      if (failed) logger.warn({ taskId: task_id }, 'training abandoned: its workers kept stopping');
    },
  };
}

class TrainingRun {
  private readonly logger: Logger;
  private readonly progress: TaskProgressReporter;
  /** The photos on local disk, released when the run ends. */
  private readonly photoFiles: LocalFile[] = [];
  private engineSeconds = 0;

  constructor(
    private readonly deps: TrainModelDeps,
    private readonly task: TrainingTask,
    private readonly context: JobContext,
  ) {
    this.logger = context.logger.child({ taskId: task.taskId, modelId: task.modelId });
    this.progress = new TaskProgressReporter(deps.db, context.job, task, this.logger);
  }

  async execute(): Promise<void> {
    const cancellation = this.deps.cancellations.track(this.task.taskId);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new TaskStopped('timeout')), this.deps.timeoutMs);
    const stop = AbortSignal.any([this.context.shutdown, cancellation.signal, timeout.signal]);
    let outputDir: string | undefined;
    try {
      void this.progress.announce({ progress: 0, message: MESSAGES.preparing, status: 'running' });
      outputDir = await createTrainingWorkspace(this.deps.tmpDir);
      const result = await this.train(outputDir, stop);
      const stored = await this.store(result);
      await this.progress.flush();
      const completed = await completeTraining(this.deps.db, {
        task: this.task,
        artifactKey: stored.modelKey,
        result: { ...stored.keys, summary: result.summary },
        gpuSeconds: this.engineSeconds,
        message: MESSAGES.completed,
      });
      this.logger.info({ completed, gpuSeconds: this.engineSeconds }, 'training finished');
    } catch (error) {
      await this.progress.flush();
      await this.fail(error, stop);
    } finally {
      clearTimeout(timer);
      cancellation.release();
      await Promise.allSettled(this.photoFiles.map((file) => file.release()));
      if (outputDir) await rm(outputDir, { recursive: true, force: true });
    }
  }

  /** Gets the photos onto local disk, then runs the engine on them. */
  private async train(outputDir: string, stop: AbortSignal): Promise<EngineRunResult> {
    const photos = await this.localPhotos();
    stop.throwIfAborted();
    const engine = await this.deps.engines.take();
    const params: TrainParams = {
      photos,
      output_dir: outputDir,
      trigger_word: this.task.triggerWord,
      model_name: this.task.modelName,
    };
    const cancel = () => void engine.cancel(stop.reason);
    stop.addEventListener('abort', cancel);
    const started = performance.now();
    try {
      return await engine.run(
        { job_id: this.task.taskId, task: 'train', params },
        {
          logger: this.logger,
          onProgress: ({ step, total, message }) =>
            this.progress.report(
              DOWNLOAD_END +
                Math.floor(((ENGINE_END - DOWNLOAD_END) * Math.min(step, total)) / total),
              message,
            ),
        },
      );
    } finally {
      this.engineSeconds = (performance.now() - started) / 1000;
      stop.removeEventListener('abort', cancel);
      // The engine may still be writing its output: it must be gone before the cleanup.
      await engine.stop();
    }
  }

  /**
   * The session's usable photos as local files (the storage's own files for the local driver,
   * downloaded copies for S3).
   */
  private async localPhotos(): Promise<TrainParams['photos']> {
    if (!this.task.sessionId) throw new TrainingInputError(MESSAGES.noPhotos);
    const photos = await usablePhotos(this.deps.db, this.task.sessionId);
    if (photos.length === 0) throw new TrainingInputError(MESSAGES.noPhotos);
    const downloads = await Promise.allSettled(
      photos.map(async (photo) => {
        const file = await this.deps.storage.localFile(photo.optimizedKey).catch((error) => {
          throw error instanceof ObjectNotFoundError
            ? new TrainingInputError(MESSAGES.photoMissing)
            : error;
        });
        this.photoFiles.push(file);
        this.progress.report(
          Math.floor((DOWNLOAD_END * this.photoFiles.length) / photos.length),
          MESSAGES.preparing,
        );
        return { id: photo.id, path: file.path };
      }),
    );
    const failed = downloads.find((d) => d.status === 'rejected');
    if (failed) throw failed.reason;
    return downloads.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
  }

  /**
   * Uploads the artifacts under fixed keys (`models/{user}/{model}/model.<ext>`, `preview.<ext>`),
   * so a re-run overwrites rather than duplicates.
   */
  private async store(
    result: EngineRunResult,
  ): Promise<{ modelKey: string; keys: Record<string, string> }> {
    // The last announcement of each kind wins.
    const byKind = new Map(result.artifacts.map((a) => [a.kind, a]));
    const model = byKind.get('model');
    if (!model) throw new EngineFailure('protocol', MESSAGES.noModel, false);
    this.progress.report(ENGINE_END, MESSAGES.saving);
    const keys: Record<string, string> = {};
    let stored = 0;
    for (const artifact of byKind.values()) {
      const key = this.artifactKey(artifact);
      await this.deps.storage.putFile(key, artifact.path, {
        contentType: artifact.kind === 'preview' ? 'image/jpeg' : 'application/octet-stream',
      });
      keys[`${artifact.kind}_key`] = key;
      stored += 1;
      // 100 % is left for the completion itself.
      this.progress.report(
        ENGINE_END + Math.floor(((100 - ENGINE_END) * stored) / (byKind.size + 1)),
        MESSAGES.saving,
      );
    }
    return { modelKey: this.artifactKey(model), keys };
  }

  private artifactKey(artifact: EngineArtifact): string {
    const extension = path.extname(artifact.path).toLowerCase();
    const suffix = /^\.[a-z0-9]{1,10}$/.test(extension) ? extension : '';
    return `models/${this.task.userId}/${this.task.modelId}/${artifact.kind}${suffix}`;
  }

  /**
   * Ends a failed attempt: back to the queue without using an attempt (shutdown), cancelled,
   * queued for a retry, or failed for good with the slot given back. Always throws.
   */
  private async fail(error: unknown, stop: AbortSignal): Promise<never> {
    const { db } = this.deps;
    const { job, token } = this.context;
    const seconds = this.engineSeconds;
    // A stopped task is judged by why it was stopped, whatever error the stop caused.
    const stopReason =
      stop.aborted && stop.reason instanceof TaskStopped ? stop.reason.reason : undefined;

    if (stopReason === 'shutdown') {
      this.logger.info('worker shutting down: training returned to the queue');
      await requeueTask(db, this.task.taskId, MESSAGES.requeued, seconds);
      await this.progress.announce({ progress: 0, message: MESSAGES.requeued, status: 'queued' });
      await job.moveToWait(token);
      throw new WaitingError();
    }
    if (stopReason === 'cancelled') {
      await failTraining(db, {
        taskId: this.task.taskId,
        status: 'cancelled',
        message: MESSAGES.cancelled,
        errorMessage: MESSAGES.cancelledError,
        gpuSeconds: seconds,
      });
      throw new UnrecoverableError(MESSAGES.cancelledError);
    }

    const { message, retryable } =
      stopReason === 'timeout'
        ? {
            message: `Training took longer than ${formatDuration(this.deps.timeoutMs)} and was stopped.`,
            retryable: true,
          }
        : describeError(error);
    const expected = error instanceof EngineFailure || error instanceof TrainingInputError;
    this.logger[expected || stopReason ? 'warn' : 'error'](
      { err: error },
      'training attempt failed',
    );
    if (retryable && !isFinalAttempt(job)) {
      const retrying = `Retrying: ${message}`;
      await requeueTask(db, this.task.taskId, retrying, seconds);
      await this.progress.announce({ progress: 0, message: retrying, status: 'queued' });
      throw new Error(message);
    }
    await failTraining(db, {
      taskId: this.task.taskId,
      status: 'failed',
      message: MESSAGES.failed,
      errorMessage: message,
      gpuSeconds: seconds,
    });
    throw new UnrecoverableError(message);
  }
}

/** The sentence a user reads on the failed task, and whether another attempt could succeed. */
function describeError(error: unknown): { message: string; retryable: boolean } {
  if (error instanceof EngineFailure) return { message: error.message, retryable: error.retryable };
  if (error instanceof TrainingInputError) return { message: error.message, retryable: false };
  return { message: MESSAGES.internal, retryable: true };
}

function formatDuration(ms: number): string {
  const [amount, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
