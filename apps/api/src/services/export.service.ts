import {
  EXPORT_KEPT_HOURS,
  MESSAGES,
  ZDataExportJobSchema,
  type DataExport,
} from '@studioshot/contracts';
import { exportKey, userPrefix, type Storage } from '@studioshot/storage';
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type {
  AccountData,
  DataExportRow,
  DataExportsRepository,
} from '../repositories/data-exports.repository.js';
import { describeDevice, displayAddress } from './account-settings.service.js';
import type { ImageTokens } from './image-tokens.js';

export interface ExportServiceDeps {
  exports: DataExportsRepository;
  /** Queues the build of an export (a scheduled job run at once, its id named after the export). */
  enqueue: (exportId: string) => Promise<unknown>;
  storage: Storage;
  /** Signs download links, for EXPORT_LINK_MINUTES exactly. */
  links: ImageTokens;
  logger: Logger;
}

/** One stored object in the zip, and where it goes. */
interface ZipEntry {
  name: string;
  key: string;
  mtime: Date;
}

/** Builds of one export before it is marked failed. */
const EXPORT_ATTEMPTS = 3;

/** The share of the progress bar reading the database takes; the files take the rest. */
const PLANNED_PROGRESS = 5;

const README = `Your Studioshot data

account.json   your account, subscription, sign-ins, payments, credit ledger, models,
               generations and photo sets, as we hold them today
headshots/     every generated headshot you have not deleted, by generation
photos/        the training photos we still hold (full size, without metadata); photos are
               deleted a set time after their training finishes

Payments and the credit ledger are also kept for accounting after you delete your account,
no longer linked to you.
`;

const extensionOf = (key: string) => /\.([a-z0-9]+)$/.exec(key)?.[1] ?? 'bin';
const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

/**
 * 'Download my data': a zip of the person's headshots, the photos still held and a JSON of the
 * account, built in a background job that streams each object from storage into the zip and the
 * zip into storage (no file is ever whole in memory), then handed out by a link signed for that
 * export alone, for EXPORT_LINK_MINUTES. The purge deletes the zip EXPORT_KEPT_HOURS later.
 */
export class ExportService {
  constructor(private readonly deps: ExportServiceDeps) {}

  /** Queues a new export, or answers the one already on its way. */
  async request(userId: string): Promise<DataExport> {
    const { row } = await this.deps.exports.createOrActive(userId);
    // Always (again): adding the same job id twice is a no-op, and a row committed by a process
    // that stopped before queueing it gets its job now.
    await this.deps.enqueue(row.id);
    return this.toDto(row);
  }

  async list(userId: string): Promise<DataExport[]> {
    const rows = await this.deps.exports.listForUser(userId);
    return rows.map((row) => this.toDto(row));
  }

  async get(userId: string, exportId: string): Promise<DataExport> {
    const row = await this.deps.exports.find(exportId);
    // Another person's export is answered exactly like one that does not exist.
    if (!row || row.user_id !== userId) throw new AppError('not_found', MESSAGES.exportNotFound);
    return this.toDto(row);
  }

  /** The zip a signed link names, while both the link and the zip last. */
  async download(
    exportId: string,
    token: string | undefined,
  ): Promise<{ key: string; filename: string }> {
    if (!token || !this.deps.links.verify(exportId, token))
      throw new AppError('not_found', MESSAGES.exportLinkExpired);
    const row = await this.deps.exports.find(exportId);
    if (!row || row.status !== 'completed' || !row.storage_key)
      throw new AppError('not_found', MESSAGES.exportLinkExpired);
    const day = row.created_at.toISOString().slice(0, 10);
    return { key: row.storage_key, filename: `studioshot-data-${day}.zip` };
  }

  /** Queues again the exports committed but perhaps never queued. */
  async requeueUnfinished(): Promise<number> {
    const ids = await this.deps.exports.listUnfinished();
    for (const id of ids) await this.deps.enqueue(id);
    return ids.length;
  }

  /**
   * The export job: builds the export, retried on failure (a storage hiccup, a process stopped
   * midway) until its last attempt, which marks the export failed for the page to say so.
   */
  async runJob(run: { data: Record<string, unknown>; attempt: number }): Promise<void> {
    const payload = ZDataExportJobSchema.safeParse(run.data);
    if (!payload.success) {
      this.deps.logger.error({ data: run.data }, 'malformed export job');
      return;
    }
    const exportId = payload.data.export_id;
    try {
      await this.build(exportId);
    } catch (error) {
      if (run.attempt < EXPORT_ATTEMPTS) throw error;
      this.deps.logger.error({ err: error, exportId }, 'data export failed for good');
      await this.deps.exports.fail(exportId, MESSAGES.exportFailed);
    }
  }

  /**
   * Builds the zip. A retry starts again from nothing and replaces the object (a put stores all
   * or nothing), so a build interrupted anywhere leaves no half zip behind.
   */
  async build(exportId: string): Promise<void> {
    const { exports, storage, logger } = this.deps;
    const row = await exports.start(exportId);
    if (!row) return;
    const data = await exports.accountData(row.user_id);
    if (!data.user) {
      await exports.fail(exportId, MESSAGES.exportFailed);
      return;
    }
    const present = await this.storedKeys(row.user_id, [
      ...data.images.map((image) => image.image_key),
      ...data.photos.map((photo) => photo.original_key),
    ]);
    const { json, files } = this.contents(data, new Date(), present);
    const progress = this.progressWriter(exportId, files.length);

    const zip = new ZipFile();
    const output = new PassThrough();
    zip.on('error', (error: Error) => output.destroy(error));
    zip.outputStream.on('error', (error: Error) => output.destroy(error));
    zip.outputStream.pipe(output);
    zip.addBuffer(Buffer.from(README), 'README.txt', { mtime: new Date() });
    zip.addBuffer(Buffer.from(`${JSON.stringify(json, null, 2)}\n`), 'account.json', {
      mtime: new Date(),
    });
    for (const file of files) {
      // Lazily: each object is opened only when the zip reaches it, one at a time.
      zip.addReadStreamLazy(file.name, { compress: false, mtime: file.mtime }, (callback) => {
        storage.get(file.key).then(
          (stream: Readable) => {
            stream.once('error', (error: Error) => output.destroy(error));
            stream.once('end', () => progress.fileDone());
            callback(null, stream);
          },
          (error: unknown) => output.destroy(error as Error),
        );
      });
    }
    zip.end();

    const key = exportKey(row.user_id, row.id);
    const stored = await storage.putStream(key, output, { contentType: 'application/zip' });
    await progress.flushed();
    if (
      !(await exports.complete(exportId, {
        storageKey: key,
        sizeBytes: stored.size,
        keptHours: EXPORT_KEPT_HOURS,
      }))
    ) {
      // Deleted or failed meanwhile: the zip must not outlive its row.
      await storage.delete(key);
      return;
    }
    logger.info({ exportId, files: files.length, bytes: stored.size }, 'data export built');
  }

  private toDto(row: DataExportRow, now = Date.now()): DataExport {
    const ready = row.status === 'completed' && row.storage_key !== null;
    const token = ready ? this.deps.links.sign(row.id, now) : null;
    return {
      id: row.id,
      status: row.status,
      progress: row.progress,
      created_at: row.created_at.toISOString(),
      completed_at: iso(row.completed_at),
      expires_at: iso(row.expires_at),
      size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
      download_url: token
        ? `/api/v1/users/exports/${row.id}/download?token=${encodeURIComponent(token)}`
        : null,
      download_expires_at: token
        ? new Date(this.deps.links.expiryOf(now) * 1000).toISOString()
        : null,
      error_message: row.error_message,
    };
  }

  /**
   * Progress as the files arrive, written to the row in whole percents, one write at a time
   * (the settings page polls the row).
   */
  private progressWriter(exportId: string, total: number) {
    let done = 0;
    let written = 0;
    let chain: Promise<void> = Promise.resolve();
    const write = (percent: number) => {
      if (percent <= written) return;
      written = percent;
      chain = chain
        .then(() => this.deps.exports.progress(exportId, percent))
        .catch((error: unknown) =>
          this.deps.logger.warn({ err: error, exportId }, 'export progress not written'),
        );
    };
    write(PLANNED_PROGRESS);
    return {
      fileDone: () => {
        done += 1;
        // 99 at most until the zip is stored: 100 means the link is ready.
        write(
          Math.min(99, PLANNED_PROGRESS + Math.floor(((100 - PLANNED_PROGRESS) * done) / total)),
        );
      },
      flushed: () => chain,
    };
  }

  /**
   * Which of these keys name a stored object: one listing of the person's prefix, and a look at
   * any key outside it. An object missing while its row exists is left out (its entry in the
   * JSON says `file: null`) rather than failing the person's whole export.
   */
  private async storedKeys(userId: string, keys: string[]): Promise<Set<string>> {
    const { storage } = this.deps;
    const present = new Set<string>();
    const prefix = userPrefix(userId);
    for await (const object of storage.list(prefix)) present.add(object.key);
    for (const key of keys)
      if (!key.startsWith(prefix) && (await storage.exists(key))) present.add(key);
    return present;
  }

  /** The account's JSON and the stored objects that go beside it. */
  private contents(data: AccountData, exportedAt: Date, present: Set<string>) {
    const user = data.user!;
    const files: ZipEntry[] = [];
    const imagesByGeneration = new Map<string, AccountData['images']>();
    for (const image of data.images) {
      const list = imagesByGeneration.get(image.generation_id) ?? [];
      list.push(image);
      imagesByGeneration.set(image.generation_id, list);
    }
    const photosBySession = new Map<string, AccountData['photos']>();
    for (const photo of data.photos) {
      const list = photosBySession.get(photo.session_id) ?? [];
      list.push(photo);
      photosBySession.set(photo.session_id, list);
    }

    const json = {
      exported_at: exportedAt.toISOString(),
      account: {
        id: user.id,
        email: user.email,
        name: user.name,
        plan_type: user.plan_type,
        subscription_interval: user.subscription_interval,
        training_limit: user.training_limit,
        models_trained: user.models_trained,
        extra_training_slots: user.extra_training_slots,
        credits_balance: user.credits_balance,
        total_generations: user.total_generations,
        gender: user.gender,
        age: user.age,
        created_at: iso(user.created_at),
        updated_at: iso(user.updated_at),
      },
      subscription: data.subscription
        ? {
            tier: data.subscription.tier,
            billing_cycle: data.subscription.billing_cycle,
            status: data.subscription.status,
            current_period_start: iso(data.subscription.current_period_start),
            current_period_end: iso(data.subscription.current_period_end),
            cancel_at_period_end: data.subscription.cancel_at_period_end,
            created_at: iso(data.subscription.created_at),
          }
        : null,
      sign_ins: data.signIns.map((s) => ({
        id: s.id,
        device: describeDevice(s.user_agent),
        user_agent: s.user_agent,
        ip_address: displayAddress(s.ip_address),
        created_at: iso(s.created_at),
        last_used_at: iso(s.last_used_at),
        ended_at: iso(s.revoked_at),
      })),
      payments: data.payments.map((p) => ({
        id: p.id,
        kind: p.kind,
        item_id: p.item_id,
        amount_cents: p.amount_cents,
        currency: p.currency,
        status: p.status,
        provider: p.provider,
        provider_reference: p.provider_intent_id,
        created_at: iso(p.created_at),
        fulfilled_at: iso(p.fulfilled_at),
        refunded_at: iso(p.refunded_at),
      })),
      credit_ledger: data.ledger.map((entry) => ({
        delta: entry.delta,
        balance_after: entry.balance_after,
        reason: entry.reason,
        payment_id: entry.payment_id,
        created_at: iso(entry.created_at),
      })),
      models: data.models.map((m) => ({
        id: m.id,
        name: m.name,
        status: m.status,
        model_type: m.model_type,
        trigger_word: m.trigger_word,
        photo_set_id: m.session_id,
        created_at: iso(m.created_at),
        // Numbers describing the face in each training photo: how headshots are matched to you.
        face_descriptors: m.face_descriptors,
      })),
      generations: data.generations.map((g) => ({
        id: g.id,
        model_id: g.model_id,
        created_at: iso(g.created_at),
        items: g.items,
        images: (imagesByGeneration.get(g.id) ?? []).map((image) => {
          const file = present.has(image.image_key)
            ? `headshots/${g.id}/${image.position + 1}-${image.id}.${extensionOf(image.image_key)}`
            : null;
          if (file) files.push({ name: file, key: image.image_key, mtime: image.created_at });
          return {
            id: image.id,
            file,
            template_id: image.template_id,
            variant: image.variant,
            width: image.width,
            height: image.height,
            favorite: image.favorite,
            created_at: iso(image.created_at),
          };
        }),
      })),
      photo_sets: data.sessions.map((s) => ({
        id: s.id,
        status: s.status,
        created_at: iso(s.created_at),
        completed_at: iso(s.completed_at),
        photos_deleted_at: iso(s.photos_purged_at),
        photos: (photosBySession.get(s.id) ?? []).map((photo) => {
          const file = present.has(photo.original_key)
            ? `photos/${s.id}/${photo.id}.${extensionOf(photo.original_key)}`
            : null;
          if (file) files.push({ name: file, key: photo.original_key, mtime: photo.created_at });
          return {
            id: photo.id,
            file,
            original_filename: photo.original_filename,
            width: photo.width,
            height: photo.height,
            usable: photo.usable,
            // The owner's "This is me" over the same-person check, when given.
            same_person_confirmed_at: iso(photo.same_person_confirmed_at),
            created_at: iso(photo.created_at),
          };
        }),
      })),
    };
    return { json, files };
  }
}
