import {
  customPromptApplies,
  ENGINE_KINDS,
  FINAL_TASK_STATUSES,
  MESSAGES,
  type EngineKind,
  type GeneratedImage,
  type GeneratedImagesResponse,
  studioPromptWords,
  type GenerationResult,
  type PromptApplied,
  type TaskPriority,
} from '@studioshot/contracts';
import type { GenerationItem } from '@studioshot/db';
import {
  CREDIT_LIST_PRICE_CENTS,
  CREDITS_PER_GENERATION,
  GENERATION_ORDER,
  queuePriority,
} from '@studioshot/pricing';
import type { Storage } from '@studioshot/storage';
import {
  STYLES,
  buildPrompt,
  templateById,
  templatePrompt,
  templatesFor,
  type Template,
  type TemplateCategory,
} from '@studioshot/templates';
import { createHash, randomInt } from 'node:crypto';
import { AppError, TRAINING_RETRY_AFTER_S } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type {
  GeneratedImageRow,
  GenerationModel,
  GenerationsRepository,
  GenerationUser,
} from '../repositories/generations.repository.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import type { TaskEventsRepository } from '../repositories/task-events.repository.js';
import type { Task, TasksRepository } from '../repositories/tasks.repository.js';
import type { GenerationOrdersService } from '../money/generation-orders.service.js';
import type { ServedImages } from './served-images.js';
import type { ImageTokens } from './image-tokens.js';

/** What a generation says until a worker takes it. */
const QUEUED_MESSAGE = 'Waiting for a worker';
/** The style whose templates a generation without template or style uses. */
const DEFAULT_STYLE = 'professional';
/** The word a prompt names the person by when there is no model (a model's own default too). */
const DEFAULT_TRIGGER_WORD = 'person';

/** Every Generate call, whatever its shape, comes down to this. */
export interface GenerationRequest {
  /** Absent: the user's latest completed model. */
  modelId?: string;
  /** The custom prompt: used only for premium annual plans and debug users. */
  prompt?: string;
  /** Empty: the style's template for the user. More than one: a batch. */
  templateIds: string[];
  variant?: number;
  style?: string;
  numImages: number;
  size: number;
  seed?: number;
  /** Queue submit names it; otherwise a batch when several templates are given. */
  taskType?: 'generation' | 'batch_generation';
  /** What the client asked for, at most: the plan decides (queuePriority). */
  priority?: TaskPriority;
  /** Engine settings the request carried (steps, guidance), kept on the task. */
  params?: Record<string, unknown>;
  idempotencyKey?: string;
  /** The post-payment page's $29 order: it pays for this generation, one per payment. */
  paymentIntentId?: string;
  /**
   * The post-payment call: the order `paymentIntentId` names pays for it, or else the user's
   * paid order that no generation uses yet; with neither, credits do as on the other calls.
   */
  paidByOrder?: boolean;
}

/**
 * What a request asks for, the key and the payment aside: a key used again with another
 * fingerprint is another request, refused rather than answered with the first generation.
 */
export function requestFingerprint(request: GenerationRequest): string {
  const { idempotencyKey: _key, paymentIntentId: _intent, ...asked } = request;
  const canonical = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : Array.isArray(value)
        ? value.map(canonical)
        : value;
  return createHash('sha256')
    .update(JSON.stringify(canonical(asked)))
    .digest('base64url');
}

/** The generation a key made, when the request is the one that made it (older rows: any). */
function sameRequest(id: string, made: string | null, asked: string | null): string {
  if (made !== null && made !== asked)
    throw new AppError('idempotency_key_reused', MESSAGES.idempotencyKeyReused);
  return id;
}

/** What a generation renders from: the personal model, or without one the best checked photo. */
type GenerationSource =
  | { model: GenerationModel; photoId: null; engineKind: EngineKind; triggerWord: string }
  | { model: null; photoId: string; engineKind: EngineKind; triggerWord: string };

export interface GenerationAnswer {
  /** 200 completed with images, 202 still queued or running when the wait ran out. */
  status: 200 | 202;
  body: GenerationResult;
}

/** The name an image is saved under (its `filename`, and its S3 link's download name). */
function downloadFilename(image: { generation_id: string; position: number }): string {
  return `headshot-${image.generation_id.slice(0, 8)}-${image.position + 1}.jpg`;
}

/**
 * Generation (docs/spec/calls.md#75-generation): accepts a generation (its task, its row and its
 * credits' reservation in
 * one transaction, once per idempotency key), queues it on its model's engine kind, and waits
 * for it on the task events stream; serves, lists, favourites and deletes the images.
 */
export class GenerationService {
  constructor(
    private readonly deps: {
      generations: GenerationsRepository;
      orders: Pick<GenerationOrdersService, 'generationOrder' | 'unusedGenerationOrder'>;
      /** The engine that restyles a photo when the user has no model (the API's ENGINE_KIND). */
      defaultEngine: EngineKind;
      tasks: TasksRepository;
      jobs: JobQueueRepository;
      events: TaskEventsRepository;
      storage: Storage;
      imageTokens: ImageTokens;
      /** The images as serving finds them, and their withdrawal when deleted. */
      servedImages: ServedImages;
      /** How long a Generate call waits for its images before answering 202. */
      waitMs: number;
      /** DEBUG_PROMPTS: everyone may send a custom prompt. */
      debugPrompts?: boolean;
      logger: Logger;
    },
  ) {}

  /** Accepts the generation (or finds the one its key already made) and waits for it. */
  async generate(userId: string, request: GenerationRequest): Promise<GenerationAnswer> {
    const id = await this.accept(userId, request);
    await this.waitForEnd(id, this.deps.waitMs);
    const body = await this.result(userId, id);
    if (body.status === 'completed' && body.images.length > 0)
      return { status: 200, body: publicResult(body) };
    if (body.status === 'completed')
      throw new AppError('generation_failed', MESSAGES.noImagesGenerated);
    if (FINAL_TASK_STATUSES.includes(body.status)) {
      const reason = body.error_message ?? MESSAGES.generationFailed;
      if (!body.payment_id) throw new AppError('generation_failed', reason);
      // Its end recorded the order as due back; the refund handler gives the money back.
      throw new AppError('generation_failed', `${reason} ${MESSAGES.generationOrderRefunded}`);
    }
    return { status: 202, body: publicResult(body) };
  }

  /**
   * Checks, reserves and queues; answers the generation's id. A key this user already used with
   * the same request answers that generation, before any check, and reserves nothing; with
   * another request it is refused. Without a key every call is a new generation.
   */
  async accept(userId: string, request: GenerationRequest): Promise<string> {
    // A paid generation is keyed by its payment; any other by the client's key, if it sent one.
    let paymentId: string | null = null;
    let key = request.idempotencyKey ?? null;
    const fingerprint = key ? requestFingerprint(request) : null;
    const order = request.paymentIntentId
      ? await this.deps.orders.generationOrder(userId, request.paymentIntentId)
      : request.paidByOrder
        ? await this.deps.orders.unusedGenerationOrder(userId)
        : undefined;
    if (order) {
      const bound = await this.deps.generations.findByPayment(order.id);
      if (bound) return bound.id;
      // Refunded before it made anything (the money-back guarantee): it buys nothing now.
      if (order.status === 'refunded') throw new AppError('conflict', MESSAGES.paymentRefunded);
      paymentId = order.id;
      key = `order:${order.id}`;
    } else if (key) {
      const seen = await this.deps.generations.findByIdempotencyKey(userId, key);
      if (seen) return sameRequest(seen.id, seen.request_fingerprint, fingerprint);
    }

    const user = await this.deps.generations.userForGeneration(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    const source = await this.source(userId, request.modelId);
    const items = this.items(user, source.triggerWord, request, source.engineKind);
    if (paymentId && items.length > 1)
      throw new AppError('validation_error', 'A generation order renders one template.');
    const taskType = request.taskType ?? (items.length > 1 ? 'batch_generation' : 'generation');
    // The plans sell queue priority: the plan's, or lower when the client asks for lower.
    const priority = queuePriority(user.plan_type, 'generation', request.priority);
    if (taskType === 'generation' && items.length > 1)
      throw new AppError(
        'validation_error',
        'A generation renders one template; send a batch_generation for several.',
      );

    const outcome = await this.deps.generations.create({
      userId,
      modelId: source.model?.id ?? null,
      sourcePhotoId: source.photoId,
      paymentId,
      taskType,
      engineKind: source.engineKind,
      priority,
      items,
      imagesPerItem: request.numImages,
      size: request.size,
      seed: request.seed ?? randomInt(0, 2 ** 31 - 1),
      // The order pays for a paid generation; any other reserves a credit per template.
      credits: paymentId ? 0 : items.length * CREDITS_PER_GENERATION,
      idempotencyKey: key,
      requestFingerprint: paymentId ? null : fingerprint,
      params: request.params ?? {},
      message: QUEUED_MESSAGE,
    });
    if (outcome.outcome === 'insufficient')
      throw new AppError('insufficient_credits', MESSAGES.insufficientCredits);
    if (outcome.outcome === 'existing')
      return paymentId
        ? outcome.id
        : sameRequest(outcome.id, outcome.requestFingerprint, fingerprint);
    try {
      await this.deps.jobs.enqueueGeneration(outcome.id, taskType, priority, source.engineKind);
    } catch (error) {
      this.deps.logger.error({ err: error, taskId: outcome.id }, 'could not queue a generation');
      // Ending it gives the credits back; should that fail too, the next start queues it.
      await this.deps.tasks
        .endWaiting(outcome.id, { status: 'failed', error: MESSAGES.queueInitializing })
        .catch((releaseError: unknown) =>
          this.deps.logger.error(
            { err: releaseError, taskId: outcome.id },
            'could not release an unqueued generation',
          ),
        );
      throw new AppError('service_unavailable', MESSAGES.queueInitializing);
    }
    return outcome.id;
  }

  /** One of the user's generations, with its images (best first), and the order that paid. */
  async result(
    userId: string,
    generationId: string,
  ): Promise<GenerationResult & { payment_id: string | null }> {
    const row = await this.deps.generations.findForUser(userId, generationId);
    if (!row) throw new AppError('not_found', MESSAGES.generationNotFound);
    const [images, { reserved, refunded }] = await Promise.all([
      row.status === 'completed' ? this.deps.generations.imagesOf(row.id) : [],
      this.deps.generations.creditsOf(row.id),
    ]);
    const credits = reserved - refunded;
    const completed = row.status === 'completed' && images.length > 0;
    // Images the engine dropped (none of their renders was clean): the set is not charged.
    const dropped = completed
      ? Math.max(0, row.items.length * row.images_per_item - images.length)
      : 0;
    return {
      id: row.id,
      generation_id: row.id,
      task_id: row.id,
      task_type: row.task_type,
      status: row.status,
      progress: row.progress,
      message: row.message,
      error_message: row.error_message,
      model_id: row.model_id,
      prompt: row.items[0]?.prompt ?? '',
      prompt_applied: row.items[0]?.prompt_applied ?? false,
      prompt_note: row.items[0]?.prompt_note ?? MESSAGES.promptNotRecorded,
      items: row.items,
      images: images.map((image) => this.toImage(image)),
      success: completed,
      generation_time:
        completed && row.completed_at
          ? Math.round((row.completed_at.getTime() - row.created_at.getTime()) / 100) / 10
          : null,
      credits_used: credits,
      credits_refunded: refunded,
      images_dropped: dropped,
      // A set delivered short costs nothing: its credits came back, or its order is refunded.
      cost: row.payment_id
        ? dropped > 0
          ? 0
          : GENERATION_ORDER.price_cents / 100
        : Math.round(credits * CREDIT_LIST_PRICE_CENTS) / 100,
      payment_id: row.payment_id,
      created_at: row.created_at.toISOString(),
      completed_at: row.completed_at?.toISOString() ?? null,
    };
  }

  styles() {
    return { styles: STYLES.map((style) => ({ ...style, use_cases: [...style.use_cases] })) };
  }

  async listImages(
    userId: string,
    page: { limit: number; offset: number },
  ): Promise<GeneratedImagesResponse> {
    const { images, total } = await this.deps.generations.listImages(userId, page);
    return { images: images.map((i) => this.toImage(i)), total, ...page };
  }

  async favorite(
    userId: string,
    imageId: string,
    favorite: boolean | undefined,
  ): Promise<GeneratedImage> {
    const image = await this.deps.generations.setFavorite(userId, imageId, favorite);
    if (!image) throw new AppError('not_found', MESSAGES.imageNotFound);
    return this.toImage(image);
  }

  /** The row goes first (nothing serves it any more), then both files. */
  async deleteImage(userId: string, imageId: string): Promise<{ message: string; id: string }> {
    const image = await this.deps.generations.deleteImage(userId, imageId);
    if (!image) throw new AppError('not_found', MESSAGES.imageNotFound);
    await this.deps.servedImages.withdraw([image.id]);
    for (const key of [image.image_key, image.thumbnail_key]) {
      await this.deps.storage.delete(key).catch((error: unknown) =>
        // The row is gone: a file left behind is garbage under the user's prefix, not a leak.
        this.deps.logger.warn({ err: error, key }, 'could not delete a generated image file'),
      );
    }
    return { message: MESSAGES.imageDeleted, id: image.id };
  }

  /**
   * The stored key of an image or its thumbnail, for a request carrying that image's token, and
   * when the token stops working (seconds since the epoch).
   */
  async servedImage(
    imageId: string,
    token: string | undefined,
    which: 'image' | 'thumbnail',
  ): Promise<{ key: string; tokenExpiry: number; filename: string }> {
    const tokenExpiry = token ? this.deps.imageTokens.expiryIfValid(imageId, token) : undefined;
    if (tokenExpiry === undefined) throw new AppError('forbidden', MESSAGES.imageLinkExpired);
    const image = await this.deps.servedImages.find(imageId);
    if (!image) throw new AppError('not_found', MESSAGES.imageNotFound);
    return {
      key: which === 'image' ? image.image_key : image.thumbnail_key,
      tokenExpiry,
      filename: downloadFilename(image),
    };
  }

  /**
   * Resolves once the task is final or `ms` have passed, whichever is first: woken by the task
   * events stream (the worker announces every change), and reading the row once up front so a
   * change that came before the subscription is not missed.
   */
  async waitForEnd(taskId: string, ms: number): Promise<void> {
    const isFinal = async () => {
      const task: Task | undefined = await this.deps.tasks.findById(taskId);
      return !task || FINAL_TASK_STATUSES.includes(task.status);
    };
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const check = () => {
        isFinal()
          .then((final) => final && finish())
          .catch((error: unknown) =>
            this.deps.logger.warn({ err: error, taskId }, 'could not read a generation task'),
          );
      };
      const timer = setTimeout(finish, ms);
      const unsubscribe = this.deps.events.onChange((change) => {
        if (change.taskId === taskId) check();
      });
      check();
    });
  }

  /**
   * The model asked for, else the latest completed one, else (no model at all) the best checked
   * photo, restyled by this API's engine kind.
   */
  private async source(userId: string, modelId: string | undefined): Promise<GenerationSource> {
    if (!modelId) {
      const latest = await this.deps.generations.latestCompletedModel(userId);
      if (!latest) {
        const photo = await this.deps.generations.bestCheckedPhoto(userId);
        if (!photo) throw new AppError('conflict', MESSAGES.uploadPhotosFirst);
        return {
          model: null,
          photoId: photo.id,
          engineKind: this.deps.defaultEngine,
          triggerWord: DEFAULT_TRIGGER_WORD,
        };
      }
    }
    const model = await this.model(userId, modelId);
    return {
      model,
      photoId: null,
      engineKind: model.model_type as EngineKind,
      triggerWord: model.trigger_word,
    };
  }

  private async model(userId: string, modelId: string | undefined): Promise<GenerationModel> {
    const model = modelId
      ? await this.deps.generations.findModel(userId, modelId)
      : await this.deps.generations.latestCompletedModel(userId);
    if (!model) throw new AppError('not_found', MESSAGES.modelNotFound);
    if (
      model.status !== 'completed' ||
      !model.artifact_key ||
      !(ENGINE_KINDS as readonly string[]).includes(model.model_type)
    )
      throw new AppError('conflict', MESSAGES.modelNotReady, {
        // Still training: waiting resolves it; failed or of another engine: waiting never does.
        retryAfterSeconds:
          model.status === 'pending' || model.status === 'training'
            ? TRAINING_RETRY_AFTER_S
            : undefined,
      });
    // A model from before generation is rebuilt by the worker from its photos: none, no rebuild.
    if ((model.artifact_format ?? 1) < 2 && model.usable_photos === 0)
      throw new AppError('conflict', MESSAGES.retrainToGenerate);
    return model;
  }

  /** The templates to render and the prompt built for each (spec: prompt building). */
  private items(
    user: GenerationUser,
    triggerWord: string,
    request: GenerationRequest,
    engineKind: EngineKind,
  ): GenerationItem[] {
    const templates: Template[] =
      request.templateIds.length > 0
        ? request.templateIds.map((id) => {
            const template = templateById(id);
            // A well-formed id the catalogue lacks names nothing (404), like any unknown id.
            if (!template) throw new AppError('not_found', MESSAGES.templateNotFound);
            return template;
          })
        : [styleTemplate(request.style, user.gender)];
    // The server's debug setting opens custom prompts to everyone; otherwise the account decides.
    const customAllowed = this.deps.debugPrompts === true || customPromptApplies(user);
    const sent = request.prompt?.trim() ?? '';
    return templates.map((template) => {
      const variant = request.variant ?? 0;
      if (!template.variants[variant]) throw new AppError('not_found', MESSAGES.templateNotFound);
      const own = templatePrompt(template, variant);
      const outcome = promptOutcome({
        sent,
        own,
        // A prompt beside a style (or nothing) is offered to every user; beside a chosen
        // template it is the custom prompt the plans sell.
        allowed: request.templateIds.length === 0 || customAllowed,
        engineKind,
      });
      return {
        template_id: template.id,
        variant,
        prompt: buildPrompt({
          customPrompt: outcome.used ? sent : undefined,
          templatePrompt: own,
          triggerWord,
        }),
        prompt_applied: outcome.applied,
        prompt_note: outcome.note,
      };
    });
  }

  private toImage(image: GeneratedImageRow): GeneratedImage {
    const token = this.deps.imageTokens.sign(image.id);
    return {
      id: image.id,
      generation_id: image.generation_id,
      model_id: image.model_id,
      url: `/images/generated/${image.id}?token=${token}`,
      thumbnail_url: `/images/generated/${image.id}/thumbnail?token=${token}`,
      filename: downloadFilename(image),
      width: image.width,
      height: image.height,
      size_bytes: image.size_bytes,
      position: image.position,
      template_id: image.template_id,
      variant: image.variant,
      identity_score: image.identity_score,
      favorite: image.favorite,
      created_at: image.created_at.toISOString(),
    };
  }
}

/**
 * The one prompt rule of every Generate call. A prompt the user may send (beside a style, or a
 * custom prompt their plan includes) is the prompt built (`used`), and shapes the images on every
 * engine: the studio engine renders its recognised words over the template's look, flux renders
 * the prompt. Otherwise the template's own prompt is built. Either way the answer says what
 * happened; a prompt never refuses a call.
 */
export function promptOutcome({
  sent,
  own,
  allowed,
  engineKind,
}: {
  sent: string;
  own: string;
  allowed: boolean;
  engineKind: EngineKind;
}): { used: boolean; applied: PromptApplied; note: string } {
  const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (sent === '') return { used: false, applied: false, note: MESSAGES.promptNotSent };
  if (normal(sent) === normal(own))
    return { used: false, applied: false, note: MESSAGES.promptIsTemplates };
  if (!allowed) return { used: false, applied: false, note: MESSAGES.promptNeedsPlan };
  if (engineKind !== 'studio')
    return { used: true, applied: [sent], note: 'Your prompt is what the model rendered.' };
  const words = studioPromptWords(sent);
  if (words.length === 0) return { used: true, applied: false, note: MESSAGES.promptNoStudioWords };
  return { used: true, applied: words, note: `Your prompt set the look: ${words.join(', ')}.` };
}

/** The answer without what only the server needs (which payment paid). */
function publicResult({
  payment_id: _paymentId,
  ...result
}: GenerationResult & { payment_id: string | null }): GenerationResult {
  return result;
}

/** A style's template for the user: the first of its category for their gender, if known. */
function styleTemplate(styleId: string | undefined, gender: string | null): Template {
  const id = styleId?.trim() || DEFAULT_STYLE;
  if (!STYLES.some((s) => s.id === id))
    throw new AppError('validation_error', MESSAGES.styleNotFound);
  const category = id as TemplateCategory;
  const forGender = gender === 'male' ? 'man' : gender === 'female' ? 'woman' : undefined;
  const template =
    templatesFor({ category, gender: forGender })[0] ?? templatesFor({ category })[0];
  if (!template) throw new AppError('validation_error', MESSAGES.styleNotFound);
  return template;
}
