// GET /api/v1/upload/sessions: the photo sets the settings page lists, each with the photos it
// holds, the model trained from it and when the retention purge takes (or took) its photos; a
// set deleted with DELETE /api/v1/upload/sessions/{id} leaves the list, its model stays.
import { ZPhotoSetListSchema, type PhotoSet } from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWithStorage, trainedPhotoSet } from './account-helpers.js';
import { bearer, registerUser, type TestApp } from './helpers.js';

const DAY_MS = 86_400_000;

let t: TestApp;

beforeAll(async () => {
  t = await createAppWithStorage('local');
});
afterAll(async () => {
  await t?.close();
});

async function signedUp(): Promise<{ id: string; token: string }> {
  const user = await registerUser(t);
  return {
    id: (user.res.body as { user: { id: string } }).user.id,
    token: user.tokens.access_token,
  };
}

async function listed(token: string): Promise<PhotoSet[]> {
  const res = await t.request.get('/api/v1/upload/sessions').set(bearer(token));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ZPhotoSetListSchema.parse(res.body).photo_sets;
}

/** An upload session opened `daysAgo` days ago holding `photos` photo rows, never trained. */
async function untrainedSet(userId: string, photos: number, daysAgo: number): Promise<string> {
  const createdAt = new Date(Date.now() - daysAgo * DAY_MS);
  const session = await t.c.db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: Math.max(photos, 1),
      expires_at: new Date(createdAt.getTime() + 2 * 3600_000),
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < photos; i++) {
    const id = randomUUID();
    await t.c.db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: userId,
        original_filename: `selfie-${i}.jpg`,
        original_key: `users/${userId}/photos/${session.id}/${id}/original.jpg`,
        optimized_key: `users/${userId}/photos/${session.id}/${id}/optimized.jpg`,
        thumbnail_key: `users/${userId}/photos/${session.id}/${id}/thumbnail.jpg`,
        mime_type: 'image/jpeg',
        width: 64,
        height: 64,
        size_bytes: 1000,
        content_hash: randomUUID(),
      })
      .execute();
  }
  return session.id;
}

async function trainingFinishedAt(modelId: string): Promise<Date> {
  const task = await t.c.db
    .selectFrom('tasks')
    .select('completed_at')
    .where('id', '=', modelId)
    .executeTakeFirstOrThrow();
  return task.completed_at!;
}

describe('GET /api/v1/upload/sessions', () => {
  it('needs a sign-in', async () => {
    const res = await t.request.get('/api/v1/upload/sessions');
    expect(res.status).toBe(401);
  });

  it('answers an empty list to a person with no photos', async () => {
    const person = await signedUp();
    await untrainedSet(person.id, 0, 0);
    expect(await listed(person.token)).toEqual([]);
  });

  it('lists each set, newest first, with its photos, its model and when its photos are purged', async () => {
    expect(t.c.env.PHOTO_RETENTION_DAYS).toBe(30);
    const person = await signedUp();
    const purged = await trainedPhotoSet(t, person.id, { finishedDaysAgo: 40, photos: 2 });
    const rebuild = await trainedPhotoSet(t, person.id, {
      finishedDaysAgo: 35,
      photos: 2,
      artifactFormat: 1,
    });
    const failed = await trainedPhotoSet(t, person.id, {
      finishedDaysAgo: 20,
      photos: 3,
      taskStatus: 'failed',
    });
    const held = await trainedPhotoSet(t, person.id, { finishedDaysAgo: 10, photos: 4 });
    const training = await trainedPhotoSet(t, person.id, {
      finishedDaysAgo: 2,
      photos: 2,
      taskStatus: 'running',
    });
    const untrained = await untrainedSet(person.id, 3, 1);
    // An upload session opened and left empty holds nothing: not listed.
    await untrainedSet(person.id, 0, 0);
    // Somebody else's set is never listed.
    const other = await signedUp();
    await trainedPhotoSet(t, other.id, { finishedDaysAgo: 5 });

    const report = await t.c.retention.purge();
    expect(report.photo_sets).toBe(1);

    const sets = await listed(person.token);
    expect(sets.map((set) => set.id)).toEqual([
      untrained,
      training.sessionId,
      held.sessionId,
      failed.sessionId,
      rebuild.sessionId,
      purged.sessionId,
    ]);
    const byId = new Map(sets.map((set) => [set.id, set]));

    const dueAfter = async (modelId: string) =>
      new Date((await trainingFinishedAt(modelId)).getTime() + 30 * DAY_MS).toISOString();
    expect(byId.get(held.sessionId)).toEqual({
      id: held.sessionId,
      status: 'completed',
      created_at: expect.any(String),
      photo_count: 4,
      photos_purged_at: null,
      photos_purge_due_at: await dueAfter(held.modelId),
      model: { id: held.modelId, name: 'My headshots', status: 'completed' },
    });
    // A failed training finished too: its photos go on the same schedule.
    expect(byId.get(failed.sessionId)).toMatchObject({
      photo_count: 3,
      photos_purged_at: null,
      photos_purge_due_at: await dueAfter(failed.modelId),
      model: { id: failed.modelId, status: 'failed' },
    });
    // Still training: its photos are in use, nothing is due.
    expect(byId.get(training.sessionId)).toMatchObject({
      photo_count: 2,
      photos_purge_due_at: null,
      model: { id: training.modelId, status: 'training' },
    });
    // Its model is rebuilt from its photos at its first generation: kept until then.
    expect(byId.get(rebuild.sessionId)).toMatchObject({
      photo_count: 2,
      photos_purged_at: null,
      photos_purge_due_at: null,
    });
    const gone = byId.get(purged.sessionId)!;
    expect(gone).toMatchObject({
      photo_count: 0,
      photos_purge_due_at: null,
      model: { id: purged.modelId, status: 'completed' },
    });
    const marked = await t.c.db
      .selectFrom('upload_sessions')
      .select('photos_purged_at')
      .where('id', '=', purged.sessionId)
      .executeTakeFirstOrThrow();
    expect(gone.photos_purged_at).toBe(marked.photos_purged_at!.toISOString());
    // Never trained: the purge never takes it; it stays until its owner deletes it.
    expect(byId.get(untrained)).toEqual({
      id: untrained,
      status: 'expired',
      created_at: expect.any(String),
      photo_count: 3,
      photos_purged_at: null,
      photos_purge_due_at: null,
      model: null,
    });
  });

  it('drops a deleted set from the list; the model trained from it stays', async () => {
    const person = await signedUp();
    const kept = await trainedPhotoSet(t, person.id, { finishedDaysAgo: 3 });
    const doomed = await trainedPhotoSet(t, person.id, { finishedDaysAgo: 1 });
    expect((await listed(person.token)).map((set) => set.id)).toEqual([
      doomed.sessionId,
      kept.sessionId,
    ]);

    const res = await t.request
      .delete(`/api/v1/upload/sessions/${doomed.sessionId}`)
      .set(bearer(person.token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    expect((await listed(person.token)).map((set) => set.id)).toEqual([kept.sessionId]);
    const models = await t.request.get('/api/v1/upload/user-models').set(bearer(person.token));
    expect((models.body as { models: { id: string }[] }).models.map((m) => m.id)).toContain(
      doomed.modelId,
    );
  });
});
