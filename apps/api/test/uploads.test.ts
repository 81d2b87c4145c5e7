import {
  MESSAGES,
  QUEUES,
  ZCreateUploadSessionResponseSchema,
  ZUploadedPhotoSchema,
  ZUploadSessionStatusSchema,
} from '@studioshot/contracts';
import { readdir, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import exifReader from 'exif-reader';
import { buffer } from 'node:stream/consumers';
import { bullPrefixOf } from '../src/areas/connections.js';
import { jobQueueOf } from '../src/areas/work.js';
import { GPS_EXIF, makeSplitImage } from './fixtures/images.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
let work: string;
let uploadTmp: string;
let storageDir: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'uploads-test-'));
  uploadTmp = path.join(work, 'incoming');
  storageDir = path.join(work, 'storage');
  t = await createTestApp({ UPLOAD_TMP_DIR: uploadTmp, STORAGE_DIR: storageDir });
});
afterAll(async () => {
  await t.close();
  await rm(work, { recursive: true, force: true });
});

/** A user who may train: one bought training slot, granted the way a payment grants it. */
async function trainingUser() {
  const user = await registerUser(t);
  await t.c.db
    .updateTable('users')
    .set({ training_limit: 1, extra_training_slots: 1 })
    .where('email', '=', user.email)
    .execute();
  return user;
}

let seed = 0;
async function photo(name = 'photo.jpg', size = { width: 900, height: 1200 }): Promise<string> {
  seed += 1;
  const file = path.join(work, `${seed}-${name}`);
  await sharp({
    create: {
      ...size,
      channels: 3,
      background: { r: (seed * 37) % 255, g: 120, b: (seed * 11) % 255 },
    },
  })
    .jpeg()
    .toFile(file);
  return file;
}

async function newSession(token: string, expected = 12) {
  const res = await t.request
    .post('/api/v1/upload/create-session')
    .set(bearer(token))
    .send({ expected_files: expected, session_type: 'training' });
  expect(res.status).toBe(201);
  return ZCreateUploadSessionResponseSchema.parse(res.body).session_id;
}

const upload = (token: string, sessionId: string, file: string, filename?: string) =>
  t.request
    .post(`/api/v1/upload/file/${sessionId}`)
    .set(bearer(token))
    .attach('file', file, filename ? { filename } : undefined);

async function photoCount() {
  return Number(
    (
      await t.c.db
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}
async function storedFiles(): Promise<string[]> {
  try {
    return (await readdir(storageDir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
async function leftoverTemp(): Promise<string[]> {
  try {
    return await readdir(uploadTmp);
  } catch {
    return [];
  }
}

describe('upload sessions', () => {
  it('are for users with a plan only', async () => {
    const free = await registerUser(t);
    const res = await t.request
      .post('/api/v1/upload/create-session')
      .set(bearer(free.tokens.access_token))
      .send({ expected_files: 12, session_type: 'training' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(MESSAGES.planRequired);
  });

  it('refuse a user at the training limit', async () => {
    const user = await trainingUser();
    await t.c.db
      .updateTable('users')
      .set({ models_trained: 1 })
      .where('email', '=', user.email)
      .execute();
    const res = await t.request
      .post('/api/v1/upload/create-session')
      .set(bearer(user.tokens.access_token))
      .send({ expected_files: 12, session_type: 'training' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(MESSAGES.trainingLimit);
  });

  it.each([[0], [21], [-3]])('refuse expected_files = %i', async (n) => {
    const user = await trainingUser();
    const res = await t.request
      .post('/api/v1/upload/create-session')
      .set(bearer(user.tokens.access_token))
      .send({ expected_files: n, session_type: 'training' });
    expect(res.status).toBe(422);
  });
});

describe('uploading a photo', () => {
  it('keeps the original without its EXIF: no GPS position at rest, orientation applied', async () => {
    const user = await trainingUser();
    const token = user.tokens.access_token;
    const session = await newSession(token);
    // A phone photo: stored 1200 x 900 with EXIF orientation 6 (shown 900 x 1200, red on top)
    // and the GPS position of where it was taken.
    const file = path.join(work, 'phone-gps.jpg');
    await makeSplitImage(file, { width: 1200, height: 900, exif: GPS_EXIF, orientation: 6 });
    expect(exifReader((await sharp(file).metadata()).exif!).GPSInfo?.GPSLatitude).toBeDefined();

    const res = await upload(token, session, file);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await t.c.db
      .selectFrom('photos')
      .select(['original_key', 'original_clean', 'width', 'height'])
      .where('id', '=', res.body.id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ original_clean: true, width: 900, height: 1200 });
    const original = await buffer(await t.c.storage.get(row.original_key));
    const meta = await sharp(original).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 900, height: 1200 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(original.includes('GPS')).toBe(false);
    expect(original.includes('FixtureCam')).toBe(false);
    const { data } = await sharp(original)
      .extract({ left: 450, top: 200, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([data[0]! > 150, data[2]! < 100]).toEqual([true, true]); // red: upright
  });

  it('stores the original, an optimised copy and a thumbnail, and answers the photo with a signed thumbnail address', async () => {
    const user = await trainingUser();
    const token = user.tokens.access_token;
    const session = await newSession(token);
    const res = await upload(token, session, await photo(), '../../etc/My Selfie.jpg');
    expect(res.status).toBe(201);
    const dto = ZUploadedPhotoSchema.parse(res.body);
    expect(dto).toMatchObject({
      filename: 'My Selfie.jpg',
      width: 900,
      height: 1200,
      check_status: 'pending',
      usable: null,
    });
    expect(await storedFiles()).toEqual(
      expect.arrayContaining(['original.jpg', 'optimized.jpg', 'thumbnail.jpg']),
    );
    const thumb = await t.request.get(dto.thumbnail_url);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(
      (await t.request.get(dto.thumbnail_url.replace(/token=.*/, 'token=1.forged'))).status,
    ).toBe(404);
    expect((await t.request.get(`/api/v1/upload/photos/${dto.id}/thumbnail`)).status).toBe(404);
    expect(await leftoverTemp()).toEqual([]);

    const status = ZUploadSessionStatusSchema.parse(
      (await t.request.get(`/api/v1/upload/session/${session}/status`).set(bearer(token))).body,
    );
    expect(status).toMatchObject({
      status: 'uploading',
      uploaded_files: 1,
      usable_files: 0,
      checks_pending: 1,
      min_photos: 10,
      max_photos: 20,
    });
    const summary = await t.request.get(`/api/v1/upload/sessions/${session}`).set(bearer(token));
    expect(summary.body).toEqual({ status: 'uploading', training_id: null });
  });

  it('queues a photo check job for the worker', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const uploaded = await upload(user.tokens.access_token, session, await photo());
    const dto = uploaded.body;
    // The workers' queues, read as the deployment keeps them.
    const jobs = jobQueueOf(t.c.env, t.c.redis, bullPrefixOf(t.c.env));
    try {
      const job = await jobs.photoCheckJob(dto.id);
      // With the upload's request id, which the worker's lines for the check carry.
      expect(job?.data).toEqual({
        photo_id: dto.id,
        session_id: session,
        request_id: uploaded.headers['x-request-id'],
      });
    } finally {
      await jobs.close();
    }
  });

  it('refuses the same picture twice in one set', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const file = await photo();
    await upload(user.tokens.access_token, session, file).expect(201);
    const again = await upload(user.tokens.access_token, session, file);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(MESSAGES.duplicatePhoto);
  });

  it('lets the owner remove a photo, files included', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const dto = (await upload(user.tokens.access_token, session, await photo())).body;
    const before = (await storedFiles()).length;
    const other = await trainingUser();
    expect(
      (
        await t.request
          .delete(`/api/v1/upload/photos/${dto.id}`)
          .set(bearer(other.tokens.access_token))
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request
          .delete(`/api/v1/upload/photos/${dto.id}`)
          .set(bearer(user.tokens.access_token))
      ).status,
    ).toBe(204);
    expect((await storedFiles()).length).toBe(before - 3);
  });
});

describe('hostile and bad uploads change nothing and leave no temp file', () => {
  async function expectRefused(
    res: { status: number; body: { detail: string } },
    status: number,
    detail: string | RegExp,
  ) {
    expect(res.status).toBe(status);
    if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
    else expect(res.body.detail).toMatch(detail);
  }

  it('a renamed non-image', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const before = { photos: await photoCount(), files: (await storedFiles()).length };
    const fake = path.join(work, 'not-a-photo.jpg');
    await writeFile(fake, '#!/bin/sh\necho this is not a jpeg\n'.repeat(50));
    await expectRefused(
      await upload(user.tokens.access_token, session, fake),
      415,
      MESSAGES.invalidFileType,
    );
    const gif = path.join(work, 'anim.jpg');
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .gif()
      .toFile(gif);
    await expectRefused(
      await upload(user.tokens.access_token, session, gif),
      415,
      MESSAGES.invalidFileType,
    );
    expect({ photos: await photoCount(), files: (await storedFiles()).length }).toEqual(before);
    expect(await leftoverTemp()).toEqual([]);
  });

  it('a truncated image and a zero-byte file', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const before = await photoCount();
    const full = await sharp(await photo()).toBuffer();
    const truncated = path.join(work, 'truncated.jpg');
    await writeFile(truncated, full.subarray(0, Math.floor(full.length / 3)));
    const res = await upload(user.tokens.access_token, session, truncated);
    expect(res.status).toBe(422);
    const empty = path.join(work, 'empty.jpg');
    await writeFile(empty, Buffer.alloc(0));
    expect((await upload(user.tokens.access_token, session, empty)).status).toBeGreaterThanOrEqual(
      400,
    );
    expect(await photoCount()).toBe(before);
    expect(await leftoverTemp()).toEqual([]);
  });

  it('a pixel bomb is refused at once', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const bomb = path.join(work, 'bomb.png');
    await sharp({
      create: { width: 20000, height: 20000, channels: 3, background: '#000' },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toFile(bomb);
    const started = performance.now();
    const res = await upload(user.tokens.access_token, session, bomb);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(res.status).toBe(422);
    expect(await leftoverTemp()).toEqual([]);
  });

  it('a file over 50 MB', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token);
    const big = path.join(work, 'big.jpg');
    const head = await sharp(await photo()).toBuffer();
    await writeFile(big, Buffer.concat([head, Buffer.alloc(51 * 1024 * 1024)]));
    const res = await upload(user.tokens.access_token, session, big);
    await expectRefused(res, 413, MESSAGES.fileTooLarge);
    expect(await leftoverTemp()).toEqual([]);
  });

  it('the 21st photo', async () => {
    const user = await trainingUser();
    const session = await newSession(user.tokens.access_token, 20);
    for (let i = 0; i < 20; i += 1)
      await upload(user.tokens.access_token, session, await photo()).expect(201);
    await expectRefused(
      await upload(user.tokens.access_token, session, await photo()),
      409,
      MESSAGES.tooManyPhotos,
    );
    expect(
      (
        await t.request
          .get(`/api/v1/upload/session/${session}/status`)
          .set(bearer(user.tokens.access_token))
      ).body.uploaded_files,
    ).toBe(20);
    expect(await leftoverTemp()).toEqual([]);
  });

  it("another user's session, an expired one, a completed one, and no file at all", async () => {
    const owner = await trainingUser();
    const intruder = await trainingUser();
    const session = await newSession(owner.tokens.access_token);
    await expectRefused(
      await upload(intruder.tokens.access_token, session, await photo()),
      404,
      MESSAGES.sessionNotFound,
    );
    await expectRefused(
      await t.request
        .get(`/api/v1/upload/session/${session}/status`)
        .set(bearer(intruder.tokens.access_token)),
      404,
      MESSAGES.sessionNotFound,
    );
    await expectRefused(
      await t.request
        .post(`/api/v1/upload/file/${session}`)
        .set(bearer(owner.tokens.access_token))
        .field('note', 'x'),
      422,
      MESSAGES.noFile,
    );
    await expectRefused(
      await upload(owner.tokens.access_token, 'not-a-uuid', await photo()),
      404,
      MESSAGES.sessionNotFound,
    );

    await t.c.db
      .updateTable('upload_sessions')
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where('id', '=', session)
      .execute();
    await expectRefused(
      await upload(owner.tokens.access_token, session, await photo()),
      410,
      MESSAGES.sessionExpired,
    );

    const done = await newSession(owner.tokens.access_token);
    await t.c.db
      .updateTable('upload_sessions')
      .set({ status: 'completed' })
      .where('id', '=', done)
      .execute();
    await expectRefused(
      await upload(owner.tokens.access_token, done, await photo()),
      409,
      MESSAGES.sessionAlreadyComplete,
    );
    expect(await leftoverTemp()).toEqual([]);
  });
});

describe('"This is me": overruling the same-person check', () => {
  const check = (id: string, ok: boolean | null, message = id) => ({ id, ok, message });
  const passing = () => [
    check('face_found', true),
    check('single_face', true),
    check('face_size', true),
    check('sharpness', true),
    check('resolution', true),
    check('same_person', true, 'Matches your other photos'),
  ];
  const verdict = (failed: Record<string, string>) => {
    const checks = passing().map((c) =>
      failed[c.id] ? { ...c, ok: false, message: failed[c.id]! } : c,
    );
    const usable = Object.keys(failed).length === 0;
    return { usable, checks, advice: usable ? [] : ['advice'] };
  };
  const confirm = (token: string | null, photoId: string) => {
    const req = t.request.post(`/api/v1/upload/photos/${photoId}/confirm-same-person`);
    return token ? req.set(bearer(token)) : req;
  };
  const row = (id: string) =>
    t.c.db
      .selectFrom('photos')
      .select(['usable', 'checks', 'same_person_confirmed_at', 'same_person_confirmed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /**
   * 13 photos with verdicts as the worker writes them: 9 pass, one flagged by the same-person
   * check alone, one by it and by blur, one only blurry, and one still being checked.
   */
  async function judgedSet() {
    const user = await trainingUser();
    const token = user.tokens.access_token;
    const session = await newSession(token, 13);
    for (let i = 0; i < 13; i += 1) await upload(token, session, await photo()).expect(201);
    const ids = (
      await t.c.db
        .selectFrom('photos')
        .select('id')
        .where('session_id', '=', session)
        .orderBy('created_at')
        .execute()
    ).map((p) => p.id);
    const stranger = { same_person: 'Matches 2 of your 11 other photos' };
    const verdicts = [
      ...Array.from({ length: 9 }, () => verdict({})),
      verdict(stranger),
      verdict({ ...stranger, sharpness: 'Blurry' }),
      verdict({ sharpness: 'Blurry' }),
    ];
    for (const [i, v] of verdicts.entries()) {
      await t.c.db
        .updateTable('photos')
        .set({ check_status: 'done', usable: v.usable, checks: JSON.stringify(v) })
        .where('id', '=', ids[i]!)
        .execute();
    }
    return {
      user,
      token,
      session,
      passing: ids[0]!,
      flagged: ids[9]!,
      flaggedAndBlurry: ids[10]!,
      blurry: ids[11]!,
      pending: ids[12]!,
    };
  }

  it('records who and when, makes the photo count, and is idempotent', async () => {
    const set = await judgedSet();
    const first = await confirm(set.token, set.flagged);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const photo = ZUploadedPhotoSchema.parse(first.body);
    expect(photo).toMatchObject({ id: set.flagged, usable: true });
    expect(photo.same_person_confirmed_at).not.toBeNull();
    // The check's own verdict stays: the warning the owner answered.
    expect(photo.checks.find((c) => c.id === 'same_person')).toMatchObject({ ok: false });
    const stored = await row(set.flagged);
    expect(stored.usable).toBe(true);
    const owner = await t.c.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', set.user.email)
      .executeTakeFirstOrThrow();
    expect(stored.same_person_confirmed_by).toBe(owner.id);
    expect(stored.same_person_confirmed_at?.toISOString()).toBe(photo.same_person_confirmed_at);

    const again = await confirm(set.token, set.flagged);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, thumbnail_url: expect.any(String) });
    expect(await row(set.flagged)).toEqual(stored);

    // Only the same-person check is overruled: a blurry photo stays out, its overrule recorded.
    const blurry = await confirm(set.token, set.flaggedAndBlurry);
    expect(blurry.status).toBe(200);
    expect(blurry.body).toMatchObject({ usable: false });
    expect(blurry.body.same_person_confirmed_at).not.toBeNull();

    const status = await t.request
      .get(`/api/v1/upload/session/${set.session}/status`)
      .set(bearer(set.token));
    expect(ZUploadSessionStatusSchema.parse(status.body)).toMatchObject({
      uploaded_files: 13,
      usable_files: 10,
    });
  });

  it('the confirmed photo counts when the set is completed and a training starts from it', async () => {
    const set = await judgedSet();
    await t.c.db.deleteFrom('photos').where('id', '=', set.pending).execute();
    const short = await t.request
      .post(`/api/v1/upload/complete/${set.session}`)
      .set(bearer(set.token));
    expect(short.status).toBe(400);
    expect(short.body.detail).toMatch(/9 of your photos can be used so far/);

    await confirm(set.token, set.flagged).expect(200);
    const done = await t.request
      .post(`/api/v1/upload/complete/${set.session}`)
      .set(bearer(set.token));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ uploaded_files: 12, usable_files: 10 });
    const training = await t.request
      .post('/api/v1/training/start')
      .set(bearer(set.token))
      .send({ model_name: 'Me', session_id: set.session });
    expect(training.status, JSON.stringify(training.body)).toBe(201);

    // A completed set is frozen as it was counted.
    const late = await confirm(set.token, set.flaggedAndBlurry);
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(MESSAGES.sessionAlreadyComplete);
    expect((await row(set.flaggedAndBlurry)).same_person_confirmed_at).toBeNull();
  });

  it('refuses, changing nothing: no sign-in, another user, a photo not flagged or not judged yet, a malformed id', async () => {
    const set = await judgedSet();
    const stranger = await trainingUser();
    const before = await Promise.all(
      [set.flagged, set.passing, set.blurry, set.pending].map((id) => row(id)),
    );

    expect((await confirm(null, set.flagged)).status).toBe(401);
    const other = await confirm(stranger.tokens.access_token, set.flagged);
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe(MESSAGES.photoNotFound);
    for (const id of [set.passing, set.blurry, set.pending]) {
      const res = await confirm(set.token, id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: MESSAGES.photoNotFlagged, code: expect.any(String) });
    }
    const malformed = await confirm(set.token, 'not-a-photo');
    expect(malformed.status).toBe(404);
    expect(malformed.body.detail).toBe(MESSAGES.photoNotFound);

    expect(
      await Promise.all([set.flagged, set.passing, set.blurry, set.pending].map((id) => row(id))),
    ).toEqual(before);
  });
});

describe('completing a session', () => {
  it('needs every check done and 10 usable photos', async () => {
    const user = await trainingUser();
    const token = user.tokens.access_token;
    const session = await newSession(token);
    for (let i = 0; i < 11; i += 1) await upload(token, session, await photo()).expect(201);
    // No worker checks them here: the call waits its time, then says when to ask again.
    const pending = await t.request.post(`/api/v1/upload/complete/${session}`).set(bearer(token));
    expect(pending.status).toBe(409);
    expect(pending.body.detail).toBe(MESSAGES.checksStillRunning);
    expect(pending.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);

    // Verdicts as the worker writes them: 9 usable, 2 not.
    const photos = await t.c.db
      .selectFrom('photos')
      .select('id')
      .where('session_id', '=', session)
      .orderBy('created_at')
      .execute();
    for (const [i, p] of photos.entries()) {
      await t.c.db
        .updateTable('photos')
        .set({
          check_status: 'done',
          usable: i < 9,
          checks: JSON.stringify({ usable: i < 9, checks: [], advice: [] }),
        })
        .where('id', '=', p.id)
        .execute();
    }
    const short = await t.request.post(`/api/v1/upload/complete/${session}`).set(bearer(token));
    expect(short.status).toBe(400);
    expect(short.body.detail).toMatch(
      /^Minimum 10 photos required for training: 9 of your photos can be used so far\.$/,
    );

    await t.c.db
      .updateTable('photos')
      .set({ usable: true })
      .where('id', '=', photos[9]!.id)
      .execute();
    const done = await t.request.post(`/api/v1/upload/complete/${session}`).set(bearer(token));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ uploaded_files: 11, usable_files: 10 });
    expect(
      (await t.request.post(`/api/v1/upload/complete/${session}`).set(bearer(token))).status,
    ).toBe(409);
    expect(
      (await t.request.get(`/api/v1/upload/sessions/${session}`).set(bearer(token))).body.status,
    ).toBe('completed');
  });

  it('waits for the checks still running, then completes (the spec client calls it at once)', async () => {
    const user = await trainingUser();
    const token = user.tokens.access_token;
    const session = await newSession(token);
    for (let i = 0; i < 10; i += 1) await upload(token, session, await photo()).expect(201);
    const answer = t.request
      .post(`/api/v1/upload/complete/${session}`)
      .set(bearer(token))
      .then((res) => res);
    // The worker's part, started once the call is on its way: each check writes its verdict.
    const worker = new Worker(
      QUEUES.photoChecks,
      async (job) => {
        const { photo_id } = job.data as { photo_id?: string };
        if (!photo_id) return;
        await t.c.db
          .updateTable('photos')
          .set({
            check_status: 'done',
            usable: true,
            checks: JSON.stringify({ usable: true, checks: [], advice: [] }),
          })
          .where('id', '=', photo_id)
          .where('session_id', '=', session)
          .execute();
      },
      {
        connection: { ...t.c.redis.options, maxRetriesPerRequest: null },
        prefix: `${t.c.env.REDIS_PREFIX}bull`,
      },
    );
    try {
      const res = await answer;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ uploaded_files: 10, usable_files: 10 });
    } finally {
      await worker.close();
    }
  });

  it('lists the user models (none yet)', async () => {
    const user = await trainingUser();
    const res = await t.request
      .get('/api/v1/upload/user-models')
      .set(bearer(user.tokens.access_token));
    expect(res.body).toEqual({ models: [] });
  });
});
