import {
  selectModels,
  applyLedgerEntry,
  generationRefundKey,
  generationReservationKey,
  isUniqueViolation,
  type Database,
  type Db,
  type EngineKindName,
  type GenerationItem,
  type TaskPriority,
} from '@studioshot/db';
import { sql, type Selectable } from 'kysely';
import type { PlanType, TaskType } from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';

export type GeneratedImageRow = Selectable<Database['generated_images']>;
export type GenerationRow = Selectable<Database['generations']>;

/** A model as generation needs it, with whether its photos can still rebuild an old artifact. */
export interface GenerationModel {
  id: string;
  user_id: string;
  status: string;
  model_type: string;
  trigger_word: string;
  artifact_key: string | null;
  artifact_format: number | null;
  usable_photos: number;
}

/** What decides the prompt and the default template: the plan, the debug flag, the gender. */
export interface GenerationUser {
  plan_type: PlanType;
  subscription_interval: string | null;
  is_debug: boolean;
  gender: string | null;
}

export interface NewGeneration {
  userId: string;
  /** Null: no personal model, `sourcePhotoId` is restyled. */
  modelId: string | null;
  sourcePhotoId: string | null;
  /** The generation order paying for it (then `credits` is 0); one generation per payment. */
  paymentId: string | null;
  taskType: Extract<TaskType, 'generation' | 'batch_generation'>;
  engineKind: EngineKindName;
  priority: TaskPriority;
  items: GenerationItem[];
  imagesPerItem: number;
  size: number;
  seed: number;
  credits: number;
  /** The client's key (or the paying order's); null: a new generation every time. */
  idempotencyKey: string | null;
  /** What the request asked for, kept with its key: the same key for another request is refused. */
  requestFingerprint: string | null;
  /** Recorded on the task (the request's engine settings: steps, guidance...). */
  params: Record<string, unknown>;
  message: string;
}

export type CreateGenerationOutcome =
  | { outcome: 'created'; id: string }
  /** The key was used before by this user: that generation (and its request), nothing reserved. */
  | { outcome: 'existing'; id: string; requestFingerprint: string | null }
  | { outcome: 'insufficient' };

class InsufficientCredits extends Error {}

/** Generations, their tasks and images; the credits they reserve. */
export class GenerationsRepository {
  constructor(private readonly db: Db) {}

  userForGeneration(userId: string): Promise<GenerationUser | undefined> {
    return this.db
      .selectFrom('users')
      .select(['plan_type', 'subscription_interval', 'is_debug', 'gender'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** The user's model (another user's is not found). */
  findModel(userId: string, modelId: string): Promise<GenerationModel | undefined> {
    return this.modelsQuery(userId).where('m.id', '=', modelId).executeTakeFirst();
  }

  /** The user's latest completed model: what a generation without a model_id renders from. */
  latestCompletedModel(userId: string): Promise<GenerationModel | undefined> {
    return this.modelsQuery(userId)
      .where('m.status', '=', 'completed')
      .orderBy('m.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  private modelsQuery(userId: string) {
    return this.db
      .selectFrom(selectModels(this.db).selectAll().as('m'))
      .select([
        'm.id',
        'm.user_id',
        'm.status',
        'm.model_type',
        'm.trigger_word',
        'm.artifact_key',
        'm.artifact_format',
        sql<number>`(
          SELECT count(*)::int FROM photos p WHERE p.session_id = m.session_id AND p.usable
        )`.as('usable_photos'),
      ])
      .where('m.user_id', '=', userId);
  }

  findByIdempotencyKey(userId: string, key: string): Promise<GenerationRow | undefined> {
    return this.db
      .selectFrom('generations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /**
   * One transaction: the task (queued), the generation row (unique per user and idempotency
   * key) and the reservation of its credits in the ledger (a conditional update: the balance
   * never goes below zero). Insufficient credits roll everything back. A key already used,
   * even by a request still in flight, answers that request's generation: the unique index
   * makes the second insert wait for the first to commit, then fail.
   */
  async create(input: NewGeneration): Promise<CreateGenerationOutcome> {
    const existing = input.idempotencyKey
      ? await this.findByIdempotencyKey(input.userId, input.idempotencyKey)
      : undefined;
    if (existing)
      return {
        outcome: 'existing',
        id: existing.id,
        requestFingerprint: existing.request_fingerprint,
      };
    const id = randomUUID();
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('tasks')
          .values({
            id,
            user_id: input.userId,
            task_type: input.taskType,
            engine_kind: input.engineKind,
            priority: input.priority,
            status: 'queued',
            model_id: input.modelId,
            params: JSON.stringify({ model_id: input.modelId, ...input.params }),
            message: input.message,
          })
          .execute();
        await trx
          .insertInto('generations')
          .values({
            id,
            user_id: input.userId,
            model_id: input.modelId,
            items: JSON.stringify(input.items),
            images_per_item: input.imagesPerItem,
            size: input.size,
            seed: input.seed,
            idempotency_key: input.idempotencyKey,
            request_fingerprint: input.requestFingerprint,
            payment_id: input.paymentId,
            source_photo_id: input.sourcePhotoId,
          })
          .execute();
        if (input.credits === 0) return;
        const reserved = await applyLedgerEntry(trx, {
          userId: input.userId,
          delta: -input.credits,
          reason: 'generation',
          idempotencyKey: generationReservationKey(id),
        });
        if (reserved.outcome !== 'applied') throw new InsufficientCredits();
      });
      return { outcome: 'created', id };
    } catch (error) {
      if (error instanceof InsufficientCredits) return { outcome: 'insufficient' };
      const first =
        input.idempotencyKey && isUniqueViolation(error, 'generations_idempotency_key')
          ? await this.findByIdempotencyKey(input.userId, input.idempotencyKey)
          : input.paymentId && isUniqueViolation(error, 'generations_payment_id_key')
            ? await this.findByPayment(input.paymentId)
            : undefined;
      if (!first) throw error;
      return { outcome: 'existing', id: first.id, requestFingerprint: first.request_fingerprint };
    }
  }

  findByPayment(paymentId: string): Promise<GenerationRow | undefined> {
    return this.db
      .selectFrom('generations')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .executeTakeFirst();
  }

  /**
   * The user's best checked photo: usable, sharpest face first, then newest. What a generation
   * without a personal model restyles.
   */
  async bestCheckedPhoto(userId: string): Promise<{ id: string } | undefined> {
    return this.db
      .selectFrom('photos')
      .select('id')
      .where('user_id', '=', userId)
      .where('usable', '=', true)
      .orderBy(sql`(analysis->>'sharpness')::float8`, (ob) => ob.desc().nullsLast())
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Whether the user has a completed model or a usable photo: something to generate from. */
  async hasGenerationSource(userId: string): Promise<boolean> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .or([
            eb.exists(
              selectModels(this.db)
                .select('id')
                .where('user_id', '=', userId)
                .where('status', '=', 'completed'),
            ),
            eb.exists(
              eb
                .selectFrom('photos')
                .select('id')
                .where('user_id', '=', userId)
                .where('usable', '=', true),
            ),
          ])
          .as('has_source'),
      ])
      .executeTakeFirstOrThrow();
    return Boolean(row.has_source);
  }

  /**
   * Paid generations that ended without images (failed or cancelled for good) whose order is
   * still counted as paid: what the refund sweep gives back at the provider.
   */
  unrefundedFailedPaidGenerations(limit = 50): Promise<{ id: string; payment_id: string }[]> {
    return this.db
      .selectFrom('generations as g')
      .innerJoin('tasks as t', 't.id', 'g.id')
      .innerJoin('payments as p', 'p.id', 'g.payment_id')
      .select(['g.id', 'p.id as payment_id'])
      .where('t.status', 'in', ['failed', 'cancelled'])
      .where('p.status', '=', 'succeeded')
      .orderBy('t.completed_at')
      .limit(limit)
      .execute();
  }

  /** A generation of the user's with its task's state. */
  findForUser(userId: string, generationId: string) {
    return this.db
      .selectFrom('generations as g')
      .innerJoin('tasks as t', 't.id', 'g.id')
      .select([
        'g.id',
        'g.user_id',
        'g.model_id',
        'g.items',
        'g.images_per_item',
        'g.payment_id',
        'g.source_photo_id',
        'g.created_at',
        't.task_type',
        't.status',
        't.progress',
        't.message',
        't.error_message',
        't.completed_at',
      ])
      .where('g.id', '=', generationId)
      .where('g.user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * The credits a generation reserved (0 when none), and those it got back (its failure, or a
   * set delivered short).
   */
  async creditsOf(generationId: string): Promise<{ reserved: number; refunded: number }> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select(['idempotency_key', 'delta'])
      .where('idempotency_key', 'in', [
        generationReservationKey(generationId),
        generationRefundKey(generationId),
      ])
      .execute();
    const delta = (key: string) => rows.find((row) => row.idempotency_key === key)?.delta ?? 0;
    return {
      reserved: -delta(generationReservationKey(generationId)),
      refunded: delta(generationRefundKey(generationId)),
    };
  }

  imagesOf(generationId: string): Promise<GeneratedImageRow[]> {
    return this.db
      .selectFrom('generated_images')
      .selectAll()
      .where('generation_id', '=', generationId)
      .orderBy('position')
      .execute();
  }

  async listImages(
    userId: string,
    page: { limit: number; offset: number },
  ): Promise<{ images: GeneratedImageRow[]; total: number }> {
    const [images, count] = await Promise.all([
      this.db
        .selectFrom('generated_images')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('generation_id')
        .orderBy('position')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.db
        .selectFrom('generated_images')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { images, total: count.n };
  }

  /** An image whoever owns it: serving checks the image token, not the owner. */
  findImage(imageId: string): Promise<GeneratedImageRow | undefined> {
    return this.db
      .selectFrom('generated_images')
      .selectAll()
      .where('id', '=', imageId)
      .executeTakeFirst();
  }

  /** Sets the favourite flag, or toggles it when `favorite` is undefined. */
  setFavorite(
    userId: string,
    imageId: string,
    favorite: boolean | undefined,
  ): Promise<GeneratedImageRow | undefined> {
    return this.db
      .updateTable('generated_images')
      .set({ favorite: favorite ?? sql<boolean>`NOT favorite` })
      .where('id', '=', imageId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  deleteImage(userId: string, imageId: string): Promise<GeneratedImageRow | undefined> {
    return this.db
      .deleteFrom('generated_images')
      .where('id', '=', imageId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }
}
