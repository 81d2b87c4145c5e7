// 'Download my data' end to end on the real app: the request queues a job on the scheduled-jobs
// facility, its worker streams the person's objects into a zip in storage (both drivers), the
// page's polling sees the progress, and the signed link hands out the zip, which is unzipped here
// and checked entry by entry; the link expires, nobody else can fetch it, the purge deletes it.
import {
  MESSAGES,
  ZDataExportListSchema,
  ZDataExportSchema,
  ZErrorSchema,
  type DataExport,
} from '@studioshot/contracts';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { registerScheduledWork } from '../src/scheduling/scheduled-work.js';
import { ImageTokens } from '../src/services/image-tokens.js';
import {
  createAppWithStorage,
  storedKeys,
  trainedPhotoSet,
  type StorageDriver,
} from './account-helpers.js';
import { deliver, generate, waitFor } from './generation-helpers.js';
import { bearer, registerUser, TEST_JWT_SECRET, type TestApp } from './helpers.js';
import { createIntent, payWithCard } from './payments-helpers.js';

afterAll(() => {
  vi.unstubAllEnvs();
});

/** The parts of account.json these tests read. */
interface ExportedAccount {
  account: Record<string, unknown>;
  payments: unknown[];
  credit_ledger: { delta: number }[];
  models: { id: string }[];
  generations: { images: { file: string }[] }[];
  photo_sets: { id: string; photos: { file: string }[] }[];
  sign_ins: unknown[];
}

/** supertest: the body as bytes, whatever its type. */
function bytes(res: Response, callback: (error: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** Every entry of a zip and its bytes, read with yauzl. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

async function bytesOf(t: TestApp, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.c.storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(['local', 's3'] as const)('data export (%s storage)', (driver: StorageDriver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createAppWithStorage(driver, { GENERATION_WAIT_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A person with a purchase, a model, a delivered generation and a photo set still held. */
  async function personWithData() {
    const user = await registerUser(t, { name: 'Ada Export' });
    const id = (user.res.body as { user: { id: string } }).user.id;
    const token = user.tokens.access_token;
    const intent = await createIntent(t, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    expect((await payWithCard(t, token, intent)).status).toBe(200);
    const confirmed = await t.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: intent.payment_intent_id });
    expect(confirmed.status).toBe(200);
    const photoSet = await trainedPhotoSet(t, id, { finishedDaysAgo: 1 });
    const modelId = photoSet.modelId;
    const accepted = await generate(t, { id, token }, '/api/v1/generation/generate-trained', {
      model_id: modelId,
      prompt: 'a person in a studio',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const generationId = (accepted.body as { id: string }).id;
    const images = await deliver(t, id, generationId, 4);
    return { id, token, email: user.email, photoSet, modelId, generationId, images };
  }

  const status = async (token: string, exportId: string) => {
    const res = await t.request.get(`/api/v1/users/exports/${exportId}`).set(bearer(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZDataExportSchema.parse(res.body);
  };
  const download = (url: string) => t.request.get(url).buffer(true).parse(bytes);

  it('builds a zip of the headshots, the photos held and the account JSON, with progress, behind a link for its owner only', async () => {
    const person = await personWithData();
    const stranger = await registerUser(t);

    // Asking twice while it waits answers the same export: one at a time per person.
    const first = await t.request.post('/api/v1/users/exports').set(bearer(person.token));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const queued = ZDataExportSchema.parse(first.body);
    expect(queued).toMatchObject({ status: 'queued', progress: 0, download_url: null });
    const second = await t.request.post('/api/v1/users/exports').set(bearer(person.token));
    expect(ZDataExportSchema.parse(second.body).id).toBe(queued.id);

    // The API's worker (as main.ts starts it) builds it; the page polls until it is done.
    await registerScheduledWork(t.c);
    t.c.scheduled.start();
    const seen: number[] = [];
    const built = await waitFor(async () => {
      const now = await status(person.token, queued.id);
      seen.push(now.progress);
      return now.status === 'completed' || now.status === 'failed' ? now : undefined;
    }, 'the export to be built');
    expect(built.status, JSON.stringify(built)).toBe('completed');
    expect(built.progress).toBe(100);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(built.download_url).toMatch(
      new RegExp(`^/api/v1/users/exports/${queued.id}/download\\?token=`),
    );
    const linkLifetime = Date.parse(built.download_expires_at!) - Date.now();
    expect(linkLifetime).toBeGreaterThan(14 * 60_000);
    expect(linkLifetime).toBeLessThanOrEqual(15 * 60_000);
    expect(Date.parse(built.expires_at!) - Date.parse(built.completed_at!)).toBe(24 * 3600_000);

    const list = await t.request.get('/api/v1/users/exports').set(bearer(person.token));
    expect(ZDataExportListSchema.parse(list.body).exports.map((e) => e.id)).toEqual([queued.id]);

    const res = await download(built.download_url!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="studioshot-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const zip = res.body as Buffer;
    expect(built.size_bytes).toBe(zip.length);
    const entries = await unzip(zip);

    const headshots = person.images.map(
      (image) => `headshots/${person.generationId}/${image.position + 1}-`,
    );
    const photos = person.photoSet.photoIds.map(
      (photoId) => `photos/${person.photoSet.sessionId}/${photoId}.png`,
    );
    const names = [...entries.keys()];
    expect(names.filter((n) => n.startsWith('headshots/'))).toHaveLength(4);
    for (const prefix of headshots) expect(names.some((n) => n.startsWith(prefix))).toBe(true);
    expect(names.filter((n) => n.startsWith('photos/')).sort()).toEqual([...photos].sort());
    expect(names).toContain('account.json');
    expect(names).toContain('README.txt');
    expect(names).toHaveLength(2 + 4 + photos.length);

    // Each file is the stored object, byte for byte.
    const headshotName = names.find((n) => n.startsWith(headshots[0]!))!;
    expect(entries.get(headshotName)!.equals(await bytesOf(t, person.images[0]!.imageKey))).toBe(
      true,
    );
    const photoRow = await t.c.db
      .selectFrom('photos')
      .select('original_key')
      .where('id', '=', person.photoSet.photoIds[0]!)
      .executeTakeFirstOrThrow();
    expect(entries.get(photos[0]!)!.equals(await bytesOf(t, photoRow.original_key))).toBe(true);

    const account = JSON.parse(entries.get('account.json')!.toString('utf8')) as ExportedAccount;
    expect(account.account).toMatchObject({
      id: person.id,
      email: person.email,
      name: 'Ada Export',
    });
    expect(account.account).not.toHaveProperty('password_hash');
    expect(JSON.stringify(account)).not.toMatch(/\$2[aby]\$/);
    expect(account.payments).toEqual([
      expect.objectContaining({
        kind: 'credits',
        item_id: 'starter_pack',
        amount_cents: 999,
        status: 'succeeded',
      }),
    ]);
    // The purchase's 20 credits, then one reserved by the generation.
    expect(account.credit_ledger.map((e) => e.delta)).toEqual([20, -1]);
    expect(account.models.map((m) => m.id)).toEqual([person.modelId]);
    expect(account.generations).toHaveLength(1);
    expect(account.generations[0]!.images.map((i) => i.file).sort()).toEqual(
      names.filter((n) => n.startsWith('headshots/')).sort(),
    );
    const set = account.photo_sets.find((s) => s.id === person.photoSet.sessionId)!;
    expect(set.photos.map((p) => p.file).sort()).toEqual([...photos].sort());
    expect(account.sign_ins).toHaveLength(1);
    expect(entries.get('README.txt')!.toString('utf8')).toContain('account.json');

    // Nobody else gets it: not its status, not its zip with their own export's link.
    const theirs = await t.request
      .get(`/api/v1/users/exports/${queued.id}`)
      .set(bearer(stranger.tokens.access_token));
    expect(theirs.status).toBe(404);
    expect(ZErrorSchema.parse(theirs.body).detail).toBe(MESSAGES.exportNotFound);
    const strangerExport = ZDataExportSchema.parse(
      (await t.request.post('/api/v1/users/exports').set(bearer(stranger.tokens.access_token)))
        .body,
    );
    const strangerBuilt = await waitFor(async () => {
      const now = await status(stranger.tokens.access_token, strangerExport.id);
      return now.status === 'completed' ? now : undefined;
    }, "the stranger's export");
    const strangerToken = new URL(strangerBuilt.download_url!, 'http://x').searchParams.get(
      'token',
    )!;
    const crossed = await download(
      `/api/v1/users/exports/${queued.id}/download?token=${encodeURIComponent(strangerToken)}`,
    );
    expect(crossed.status).toBe(404);
    expect((await download(`/api/v1/users/exports/${queued.id}/download`)).status).toBe(404);
    expect((await download(`${built.download_url!}x`)).status).toBe(404);
  });

  it('hands out links that expire after 15 minutes, and the purge deletes the zip after a day', async () => {
    const person = await personWithData();
    const requested = ZDataExportSchema.parse(
      (await t.request.post('/api/v1/users/exports').set(bearer(person.token))).body,
    );
    const built: DataExport = await waitFor(async () => {
      const now = await status(person.token, requested.id);
      return now.status === 'completed' ? now : undefined;
    }, 'the export to be built');

    // A link signed 14 minutes ago still works; one signed 16 minutes ago does not.
    const links = new ImageTokens(`${TEST_JWT_SECRET}:exports`, 15 * 60, 1);
    const signedAgo = (minutes: number) =>
      `/api/v1/users/exports/${built.id}/download?token=${encodeURIComponent(
        links.sign(built.id, Date.now() - minutes * 60_000),
      )}`;
    expect((await download(signedAgo(14))).status).toBe(200);
    const expired = await download(signedAgo(16));
    expect(expired.status).toBe(404);
    expect(JSON.parse((expired.body as Buffer).toString()).detail).toBe(MESSAGES.exportLinkExpired);

    const zipKey = `users/${person.id}/exports/${built.id}.zip`;
    expect(await storedKeys(t.c.storage, person.id)).toContain(zipKey);
    // Not yet a day old: kept.
    expect((await t.c.retention.purge()).exports).toBe(0);
    const dayLater = new Date(Date.now() + 24 * 3600_000 + 60_000);
    expect((await t.c.retention.purge(dayLater)).exports).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(t.c.storage, person.id)).not.toContain(zipKey);
    const after = await status(person.token, built.id);
    expect(after).toMatchObject({ status: 'expired', download_url: null });
    expect((await download(signedAgo(1))).status).toBe(404);
    // Other files of the person stay.
    expect(await storedKeys(t.c.storage, person.id)).toEqual(
      expect.arrayContaining(person.photoSet.keys),
    );
  });
});
