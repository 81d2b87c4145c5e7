import type { TrainParams } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import { modelArtifactKey, ObjectNotFoundError, type Storage } from '@studioshot/storage';
import path from 'node:path';
import {
  EngineFailure,
  type EngineArtifact,
  type EngineRunResult,
} from '../bridge/engine-process.js';
import type { EngineLease } from '../bridge/engine-pool.js';
import {
  TaskInputError,
  type ProgressBand,
  type TaskRun,
  type TaskWork,
} from '../tasks/task-runner.js';
import { modelForTraining, usablePhotos, type UsablePhoto } from './training-store.js';

export interface TrainModelDeps {
  db: Db;
  storage: Storage;
  engines: { leaseTraining(): Promise<EngineLease> };
  /** A training (download, engine, upload) running longer than this is stopped and retried. */
  timeoutMs: number;
}

/** The artifact format this worker's engines write (apps/worker/engine/README.md). */
export const ARTIFACT_FORMAT = 2;

// Progress bands: downloading 0-5 %, the engine's steps 5-95 %, storing 95-100 %.
const DOWNLOAD: ProgressBand = { start: 0, end: 5 };
const ENGINE: ProgressBand = { start: 5, end: 95 };
const STORE: ProgressBand = { start: 95, end: 100 };

export const TRAINING_MESSAGES = {
  starting: 'Preparing your photos',
  saving: 'Saving your model',
  completed: 'Training complete',
  failed: 'Training failed',
  cancelled: 'Training was cancelled',
  cancelledError: 'Training was cancelled by an operator.',
  requeued: 'Waiting for a worker: the previous one shut down',
  internal: 'Training stopped because of an internal error.',
  abandoned: 'Training stopped because the machine running it stopped responding.',
  timedOut: 'Training took longer than {duration} and was stopped.',
  noPhotos: 'This upload session has no usable photos to train on.',
  photoMissing: 'One of your photos could not be read from storage. Upload your photos again.',
  noModel: 'The training engine finished without producing a model.',
} as const;

/** A trained model's artifacts, stored. */
export interface StoredModel {
  modelKey: string;
  keys: Record<string, string>;
  summary: Record<string, unknown>;
  faceDescriptors: number[][];
}

/**
 * `model.train {task_id}`: trains the task's model on its session's usable photos with a fresh
 * engine process, stores the artifacts under fixed keys and completes task and model together
 * (the task runner's ladder does the rest).
 */
export function trainModelWork(deps: TrainModelDeps): TaskWork {
  return {
    types: ['training'],
    messages: TRAINING_MESSAGES,
    timeoutMs: deps.timeoutMs,
    async execute(run) {
      const model = await modelForTraining(deps.db, run.task);
      const stored = await buildModel(deps, run, model, {
        download: DOWNLOAD,
        engine: ENGINE,
        store: STORE,
      });
      return {
        result: { ...stored.keys, summary: stored.summary },
        output: {
          type: 'training',
          artifactKey: stored.modelKey,
          artifactFormat: ARTIFACT_FORMAT,
          faceDescriptors: stored.faceDescriptors,
        },
      };
    },
  };
}

/**
 * Builds a model's artifact from its session's usable photos: downloads them, runs the engine's
 * training step, uploads what it wrote. Also how a generation rebuilds a format-1 model.
 */
export async function buildModel(
  deps: TrainModelDeps,
  run: TaskRun,
  model: {
    id: string;
    userId: string;
    sessionId: string | null;
    name: string;
    triggerWord: string;
  },
  bands: { download: ProgressBand; engine: ProgressBand; store: ProgressBand },
): Promise<StoredModel> {
  if (!model.sessionId) throw new TaskInputError(TRAINING_MESSAGES.noPhotos);
  const usable = await usablePhotos(deps.db, model.sessionId);
  if (usable.length === 0) throw new TaskInputError(TRAINING_MESSAGES.noPhotos);
  const photos = await localPhotos(deps, run, usable, bands.download);
  const checkpoints = new TrainingCheckpoints(deps.storage, run, model);
  const resumeFrom = await checkpoints.previous();
  run.stop.throwIfAborted();
  const outputDir = path.join(run.workspace, 'model');
  const params: TrainParams = {
    photos,
    output_dir: outputDir,
    trigger_word: model.triggerWord,
    model_name: model.name,
    ...(resumeFrom ? { resume_from: resumeFrom } : {}),
  };
  const result = await run.runEngine(
    await deps.engines.leaseTraining(),
    { job_id: run.task.id, task: 'train', params },
    bands.engine,
    { onArtifact: (artifact) => checkpoints.announced(artifact) },
  );
  const stored = await storeArtifacts(deps, run, model, result, bands.store);
  await checkpoints.discard();
  // Every usable photo's descriptor: images are ranked by their median distance to these.
  const faceDescriptors = photos.flatMap((photo) => (photo.descriptor ? [photo.descriptor] : []));
  return { ...stored, summary: result.summary, faceDescriptors };
}

/**
 * Usable photos as local files (the storage's own files for the local driver, downloaded copies
 * for S3): the optimised copy and the full-size original of each, released at the run's end.
 */
export async function localPhotos(
  deps: Pick<TrainModelDeps, 'storage'>,
  run: TaskRun,
  photos: UsablePhoto[],
  band: ProgressBand,
): Promise<TrainParams['photos']> {
  let downloaded = 0;
  const fetchFile = async (key: string) => {
    const file = await deps.storage.localFile(key).catch((error: unknown) => {
      throw error instanceof ObjectNotFoundError
        ? new TaskInputError(TRAINING_MESSAGES.photoMissing)
        : error;
    });
    run.onCleanup(() => file.release());
    downloaded += 1;
    run.report(band, downloaded / (photos.length * 2), TRAINING_MESSAGES.starting);
    return file.path;
  };
  const downloads = await Promise.allSettled(
    photos.map(async (photo) => ({
      id: photo.id,
      path: await fetchFile(photo.optimizedKey),
      original_path: await fetchFile(photo.originalKey),
      descriptor: photo.descriptor,
      ...(photo.faceBox ? { face_box: photo.faceBox } : {}),
    })),
  );
  const failed = downloads.find((d) => d.status === 'rejected');
  if (failed) throw failed.reason;
  return downloads.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
}

/**
 * Uploads the artifacts under fixed keys (`users/{user}/models/{model}/model.<ext>`,
 * `preview.<ext>`), so a re-run overwrites rather than duplicates.
 */
async function storeArtifacts(
  deps: TrainModelDeps,
  run: TaskRun,
  model: { id: string; userId: string },
  result: EngineRunResult,
  band: ProgressBand,
): Promise<{ modelKey: string; keys: Record<string, string> }> {
  // The last announcement of each kind wins; checkpoints were stored as they came.
  const byKind = new Map(
    result.artifacts.filter((a) => a.kind !== CHECKPOINT_KIND).map((a) => [a.kind, a]),
  );
  const artifact = byKind.get('model');
  if (!artifact) throw new EngineFailure('protocol', TRAINING_MESSAGES.noModel, false);
  run.report(band, 0, TRAINING_MESSAGES.saving);
  const keys: Record<string, string> = {};
  let stored = 0;
  for (const { kind, path: file } of byKind.values()) {
    const extension = path.extname(file).toLowerCase();
    const suffix = /^\.[a-z0-9]{1,16}$/.test(extension) ? extension : '';
    const key = modelArtifactKey(model.userId, model.id, `${kind}${suffix}`);
    await deps.storage.putFile(key, file, {
      contentType: kind === 'preview' ? 'image/jpeg' : 'application/octet-stream',
    });
    keys[`${kind}_key`] = key;
    stored += 1;
    // 100 % is left for the completion itself.
    run.report(band, stored / (byKind.size + 1), TRAINING_MESSAGES.saving);
  }
  return { modelKey: keys.model_key!, keys };
}

const CHECKPOINT_KIND = 'checkpoint';

/**
 * A training's checkpoints (engines that write them: flux), kept in storage beside the model
 * (`users/{user}/models/{model}/checkpoint.<ext>`), so that a retried attempt, on this worker or
 * another, resumes where the last one stopped. Each announced checkpoint replaces the stored one
 * (uploads in order, one at a time, while the engine goes on); the training's end discards it.
 */
class TrainingCheckpoints {
  private readonly key: string;
  private uploads: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly run: TaskRun,
    model: { id: string; userId: string },
  ) {
    this.key = modelArtifactKey(model.userId, model.id, `${CHECKPOINT_KIND}.safetensors`);
    // Whatever ends the attempt, no upload is left writing once its files are removed.
    run.onCleanup(() => this.uploads);
  }

  /** The checkpoint an earlier attempt stored, as a local file; undefined when there is none. */
  async previous(): Promise<string | undefined> {
    if (!(await this.storage.exists(this.key))) return undefined;
    const file = await this.storage.localFile(this.key);
    this.run.onCleanup(() => file.release());
    this.run.logger.info({ key: this.key }, 'resuming the training from its stored checkpoint');
    return file.path;
  }

  announced(artifact: EngineArtifact): void {
    if (artifact.kind !== CHECKPOINT_KIND) return;
    this.uploads = this.uploads.then(async () => {
      try {
        await this.storage.putFile(this.key, artifact.path, {
          contentType: 'application/octet-stream',
        });
        this.run.logger.debug({ step: artifact.meta?.step }, 'training checkpoint stored');
      } catch (error) {
        // A newer checkpoint replaced this file already, or storage hiccuped: the next one will do.
        this.run.logger.warn({ err: error }, 'training checkpoint not stored');
      }
    });
  }

  /** The model is stored: its checkpoint has served. */
  async discard(): Promise<void> {
    await this.uploads;
    await this.storage.delete(this.key);
  }
}
