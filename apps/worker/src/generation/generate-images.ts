import {
  MESSAGES,
  ZGenerateParamsSchema,
  type EngineKind,
  type GenerateParams,
} from '@studioshot/contracts';
import { selectModels, upgradeModelArtifact, type Db, type GenerationItem } from '@studioshot/db';
import { generationImageKey } from '@studioshot/storage';
import { templateById } from '@studioshot/templates';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import { EngineFailure } from '../bridge/engine-process.js';
import type { EngineLease } from '../bridge/engine-pool.js';
import type { PhotoAnalyzer } from '../photo-checks/index.js';
import {
  TaskInputError,
  type ProgressBand,
  type TaskRun,
  type TaskWork,
} from '../tasks/task-runner.js';
import {
  ARTIFACT_FORMAT,
  buildModel,
  localPhotos,
  type TrainModelDeps,
} from '../training/train-model.js';
import { usablePhoto, usablePhotos } from '../training/training-store.js';
import { rankByIdentity } from './rank-images.js';

export interface GenerateDeps extends TrainModelDeps {
  engines: TrainModelDeps['engines'] & { leaseGeneration(): Promise<EngineLease> };
  /** The engine kind this worker runs: a model trained by another kind is not ours to render. */
  kind: EngineKind;
  analyzer: () => Promise<Pick<PhotoAnalyzer, 'analyzePhoto'>>;
}

export const GENERATION_MESSAGES = {
  starting: 'Preparing your model',
  readingPhoto: 'Reading your photo',
  upgrading: 'Updating your model for generation',
  rendering: 'Creating your headshots',
  ranking: 'Choosing your best shots',
  saving: 'Saving your headshots',
  completed: 'Your headshots are ready',
  failed: 'Generation failed',
  cancelled: 'Generation was cancelled',
  cancelledError: 'Generation was cancelled by an operator.',
  requeued: 'Waiting for a worker: the previous one shut down',
  internal: 'Generation stopped because of an internal error.',
  abandoned: 'Generation stopped because the machine running it stopped responding.',
  timedOut: 'Generation took longer than {duration} and was stopped.',
  notFound: 'This generation no longer exists.',
  modelNotReady: 'This model has not finished training, so it cannot generate headshots yet.',
  otherEngine: 'This model was trained by another engine and cannot be generated here.',
  unknownTemplate: 'This style template no longer exists.',
  photoGone:
    'The photo these headshots were to be made from has been deleted. Please upload your photos again.',
  noImages: 'The generation engine finished without producing any image.',
  incomplete:
    '{delivered} of {asked} headshots passed our quality check, so this set is not charged.',
} as const;

// Progress bands: the model ready 0-10 % (rebuilding a format-1 model takes 0-40 %), the
// engine's images up to 85 %, ranking to 92 %, storing to 100 %.
const MODEL: ProgressBand = { start: 0, end: 10 };
const UPGRADE = {
  download: { start: 0, end: 5 },
  engine: { start: 5, end: 35 },
  store: { start: 35, end: 40 },
};
// A generation without a model reads its photo first: download 0-3 %, the engine's read to 10 %.
const PHOTO = { download: { start: 0, end: 3 }, engine: { start: 3, end: 10 } };
const RANK: ProgressBand = { start: 85, end: 92 };
const STORE: ProgressBand = { start: 92, end: 100 };
/** Thumbnails for galleries: the long side, in pixels. */
const THUMBNAIL_SIDE = 512;

interface GenerationPlan {
  id: string;
  userId: string;
  items: GenerationItem[];
  imagesPerItem: number;
  size: number;
  seed: number;
  /** Without a model: the checked photo to restyle. */
  sourcePhotoId: string | null;
  model: {
    id: string;
    userId: string;
    sessionId: string | null;
    name: string;
    triggerWord: string;
    status: string;
    modelType: string;
    artifactKey: string | null;
    artifactFormat: number | null;
    faceDescriptors: number[][] | null;
  } | null;
}

interface GeneratedFile {
  path: string;
  item: number;
  index: number;
  templateId: string | null;
  variant: number | null;
}

/**
 * `generation.run {task_id}`: renders a generation's images (each template of a batch in turn)
 * on the warm engine session, ranks them by likeness to the person, stores them and their
 * thumbnails under fixed keys, and completes the task with its images (the task runner's ladder
 * does the rest). Reads only the model's row and artifact, never the photos, except to rebuild a
 * model trained before generation existed while its photos are still there, and for a user with
 * no model, the one checked photo the generation restyles.
 */
export function generateWork(deps: GenerateDeps): TaskWork {
  return {
    types: ['generation', 'batch_generation'],
    messages: GENERATION_MESSAGES,
    timeoutMs: deps.timeoutMs,
    async execute(run) {
      const plan = await loadPlan(deps.db, run.task.id);
      if (!plan) throw new TaskInputError(GENERATION_MESSAGES.notFound);
      const source = plan.model
        ? await modelSource(deps, run, plan.model)
        : await photoSource(deps, run, plan);

      const files = await render(deps, run, plan, source.modelPath, source.rendering);
      run.report(RANK, 0, GENERATION_MESSAGES.ranking);
      const ranked = await rankByIdentity(await deps.analyzer(), files, source.references);
      const images = await storeImages(deps, run, plan, ranked);
      const asked = plan.items.length * plan.imagesPerItem;
      const shortItems = plan.items.filter(
        (_item, index) => files.filter((file) => file.item === index).length < plan.imagesPerItem,
      ).length;
      return {
        result: {
          images: images.length,
          dropped: asked - images.length,
          model_id: plan.model?.id ?? null,
          source_photo_id: plan.model ? null : plan.sourcePhotoId,
          engine_seconds: Math.round(run.engineSeconds * 100) / 100,
        },
        output: { type: 'generation', images, shortItems },
        ...(shortItems > 0 ? { message: incompleteMessage(images.length, asked) } : {}),
      };
    },
  };
}

/**
 * The completion line of a set that came back short: what was delivered, and that it costs
 * nothing (its credits went back, or its order is refunded).
 */
export function incompleteMessage(delivered: number, asked: number): string {
  return GENERATION_MESSAGES.incomplete
    .replace('{delivered}', String(delivered))
    .replace('{asked}', String(asked));
}

/** What the images are rendered from, the faces they are ranked against, and their band. */
interface RenderSource {
  /** null: the base model alone (a flux generation for a user without a personal model). */
  modelPath: string | null;
  references: number[][];
  rendering: ProgressBand;
}

/** The personal model's artifact (rebuilt first when it predates generation). */
async function modelSource(
  deps: GenerateDeps,
  run: TaskRun,
  model: NonNullable<GenerationPlan['model']>,
): Promise<RenderSource> {
  if (model.status !== 'completed' || !model.artifactKey) {
    throw new TaskInputError(GENERATION_MESSAGES.modelNotReady);
  }
  if (model.modelType !== deps.kind) throw new TaskInputError(GENERATION_MESSAGES.otherEngine);
  let artifactKey = model.artifactKey;
  let references = model.faceDescriptors ?? [];
  let rendering: ProgressBand = { start: MODEL.end, end: RANK.start };
  if ((model.artifactFormat ?? 1) < ARTIFACT_FORMAT) {
    const rebuilt = await upgradeModel(deps, run, model);
    artifactKey = rebuilt.artifactKey;
    references = rebuilt.references;
    rendering = { start: UPGRADE.store.end, end: RANK.start };
  }
  run.report(MODEL, 0.5, GENERATION_MESSAGES.starting);
  const modelFile = await deps.storage.localFile(artifactKey);
  run.onCleanup(() => modelFile.release());
  return { modelPath: modelFile.path, references, rendering };
}

/**
 * No personal model: the engine reads the one checked photo into a model in the run's workspace
 * (on the warm session; never stored), and the images are ranked against that photo's face.
 */
async function photoSource(
  deps: GenerateDeps,
  run: TaskRun,
  plan: GenerationPlan,
): Promise<RenderSource> {
  const photo = plan.sourcePhotoId
    ? await usablePhoto(deps.db, plan.userId, plan.sourcePhotoId)
    : undefined;
  if (!photo) throw new TaskInputError(GENERATION_MESSAGES.photoGone);
  const references = photo.descriptor ? [photo.descriptor] : [];
  if (deps.kind === 'flux') {
    // FLUX's base model renders from the prompt alone; the images are still ranked against the
    // user's photo.
    return { modelPath: null, references, rendering: { start: MODEL.end, end: RANK.start } };
  }
  run.report(PHOTO.download, 0, GENERATION_MESSAGES.readingPhoto);
  const photos = await localPhotos(deps, run, [photo], PHOTO.download);
  run.stop.throwIfAborted();
  const result = await run.runEngine(
    await deps.engines.leaseGeneration(),
    {
      job_id: `${run.task.id}/photo`,
      task: 'train',
      params: {
        photos,
        output_dir: path.join(run.workspace, 'photo-model'),
        trigger_word: 'person',
        model_name: 'photo',
        min_usable_photos: 1,
      },
    },
    PHOTO.engine,
  );
  const model = result.artifacts.findLast((artifact) => artifact.kind === 'model');
  if (!model) throw new EngineFailure('protocol', GENERATION_MESSAGES.noImages, false);
  return {
    modelPath: model.path,
    references,
    rendering: { start: PHOTO.engine.end, end: RANK.start },
  };
}

async function loadPlan(db: Db, generationId: string): Promise<GenerationPlan | undefined> {
  const row = await db
    .selectFrom('generations as g')
    .leftJoin(selectModels(db).selectAll().as('m'), (join) => join.onRef('m.id', '=', 'g.model_id'))
    .select([
      'g.id',
      'g.user_id',
      'g.items',
      'g.images_per_item',
      'g.size',
      'g.seed',
      'g.source_photo_id',
      'm.id as model_id',
      'm.user_id as model_user_id',
      'm.session_id',
      'm.name',
      'm.trigger_word',
      'm.status',
      'm.model_type',
      'm.artifact_key',
      'm.artifact_format',
      'm.face_descriptors',
    ])
    .where('g.id', '=', generationId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    items: row.items,
    imagesPerItem: row.images_per_item,
    size: row.size,
    seed: row.seed,
    sourcePhotoId: row.source_photo_id,
    model:
      row.model_id && row.model_user_id
        ? {
            id: row.model_id,
            userId: row.model_user_id,
            sessionId: row.session_id ?? null,
            name: row.name ?? '',
            triggerWord: row.trigger_word ?? 'person',
            status: row.status ?? 'failed',
            modelType: row.model_type ?? '',
            artifactKey: row.artifact_key ?? null,
            artifactFormat: row.artifact_format ?? null,
            faceDescriptors: row.face_descriptors ?? null,
          }
        : null,
  };
}

/**
 * A model trained before generation existed (artifact format 1) is rebuilt from its photos while
 * they exist; without them the user is told to retrain.
 */
async function upgradeModel(
  deps: GenerateDeps,
  run: TaskRun,
  model: NonNullable<GenerationPlan['model']>,
): Promise<{ artifactKey: string; references: number[][] }> {
  const photos = model.sessionId ? await usablePhotos(deps.db, model.sessionId) : [];
  if (photos.length === 0) throw new TaskInputError(MESSAGES.retrainToGenerate);
  run.report(UPGRADE.download, 0, GENERATION_MESSAGES.upgrading);
  const stored = await buildModel(deps, run, model, UPGRADE);
  await upgradeModelArtifact(deps.db, model.id, {
    artifactKey: stored.modelKey,
    artifactFormat: ARTIFACT_FORMAT,
    faceDescriptors: stored.faceDescriptors,
  });
  run.logger.info({ modelId: model.id }, 'model rebuilt in the current artifact format');
  return { artifactKey: stored.modelKey, references: stored.faceDescriptors };
}

/** The request's engine settings recorded on the task (POST /generation/flux-generate's). */
const ZRequestedEngineSettings = z.object({
  steps: ZGenerateParamsSchema.shape.steps.catch(undefined),
  guidance_scale: ZGenerateParamsSchema.shape.guidance_scale.catch(undefined),
});

function engineSettings(params: unknown): Pick<GenerateParams, 'steps' | 'guidance_scale'> {
  const parsed = ZRequestedEngineSettings.safeParse(params ?? {});
  if (!parsed.success) return {};
  const { steps, guidance_scale } = parsed.data;
  return {
    ...(steps !== undefined ? { steps } : {}),
    ...(guidance_scale !== undefined ? { guidance_scale } : {}),
  };
}

/** Each item (a template of a batch) rendered in turn on the warm session. */
async function render(
  deps: GenerateDeps,
  run: TaskRun,
  plan: GenerationPlan,
  modelPath: string | null,
  band: ProgressBand,
): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  const settings = engineSettings(run.task.params);
  const share = (band.end - band.start) / plan.items.length;
  for (const [itemIndex, item] of plan.items.entries()) {
    const template = item.template_id ? templateById(item.template_id) : undefined;
    if (item.template_id && !template)
      throw new TaskInputError(GENERATION_MESSAGES.unknownTemplate);
    const variant = template?.variants[item.variant] ?? template?.variants[0];
    const params: GenerateParams = {
      model_path: modelPath,
      prompt: item.prompt,
      // The user's prompt shapes the template's look (the API decided it may: prompt_applied).
      ...(Array.isArray(item.prompt_applied) ? { prompt_shapes_look: true } : {}),
      template:
        template && variant
          ? { id: template.id, variant: variant.index, studio: variant.studio }
          : null,
      // Each item of a batch gets its own seed, all derived from the generation's.
      seed: (plan.seed + itemIndex * 7919) % 2 ** 31,
      count: plan.imagesPerItem,
      size: plan.size,
      output_dir: path.join(run.workspace, `item-${itemIndex}`),
      ...settings,
    };
    const itemBand = {
      start: Math.round(band.start + share * itemIndex),
      end: Math.round(band.start + share * (itemIndex + 1)),
    };
    run.report(itemBand, 0, GENERATION_MESSAGES.rendering);
    const result = await run.runEngine(
      await deps.engines.leaseGeneration(),
      { job_id: `${run.task.id}/${itemIndex}`, task: 'generate', params },
      itemBand,
    );
    for (const artifact of result.artifacts) {
      if (artifact.kind !== 'image') continue;
      const index = typeof artifact.meta?.index === 'number' ? artifact.meta.index : files.length;
      files.push({
        path: artifact.path,
        item: itemIndex,
        index,
        templateId: template?.id ?? null,
        variant: variant?.index ?? null,
      });
    }
  }
  if (files.length === 0) throw new EngineFailure('protocol', GENERATION_MESSAGES.noImages, false);
  return files;
}

/**
 * Stores each image and its thumbnail under fixed keys (item and engine index), so a re-run
 * overwrites rather than duplicates; answers the images best first.
 */
async function storeImages(
  deps: GenerateDeps,
  run: TaskRun,
  plan: GenerationPlan,
  ranked: Awaited<ReturnType<typeof rankByIdentity<GeneratedFile>>>,
) {
  run.report(STORE, 0, GENERATION_MESSAGES.saving);
  const images = [];
  for (const [position, { item: file, score, distance }] of ranked.entries()) {
    const name = `${file.item}-${file.index}`;
    const imageKey = generationImageKey(plan.userId, plan.id, `${name}.jpg`);
    const thumbnailKey = generationImageKey(plan.userId, plan.id, `${name}-thumb.jpg`);
    const thumbnailPath = path.join(path.dirname(file.path), `${name}-thumb.jpg`);
    const [metadata, { size: sizeBytes }] = await Promise.all([
      sharp(file.path).metadata(),
      stat(file.path),
      sharp(file.path)
        .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toFile(thumbnailPath),
    ]);
    await deps.storage.putFile(imageKey, file.path, { contentType: 'image/jpeg' });
    await deps.storage.putFile(thumbnailKey, thumbnailPath, { contentType: 'image/jpeg' });
    images.push({
      position,
      templateId: file.templateId,
      variant: file.variant,
      imageKey,
      thumbnailKey,
      width: metadata.width ?? plan.size,
      height: metadata.height ?? plan.size,
      sizeBytes,
      identityScore: score,
      identityDistance: distance,
    });
    run.report(STORE, (position + 1) / (ranked.length + 1), GENERATION_MESSAGES.saving);
  }
  return images;
}
