import { JOB_NAMES, QUEUES } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { LocalStorage } from '@studioshot/storage';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejudgePhotoSet } from '../src/photo-checks/check-photo.js';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import { createSuite, FIXTURES, type Suite } from './support/harness.js';

let suite: Suite;
let db: Db;
let storage: LocalStorage;
let queue: Queue;
let worker: RunningWorker;

beforeAll(async () => {
  suite = await createSuite();
  ({ db, storage } = suite);
  queue = suite.queue(QUEUES.photoChecks, { attempts: 2, backoff: { type: 'fixed', delay: 100 } });
  worker = await startWorker(suite.env(), { db, storage, logger: pino({ level: 'silent' }) });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await suite?.close();
});

/** A user, an open session, and its photos stored as the API stores them. */
async function sessionWith(files: string[], options: { missing?: boolean } = {}) {
  const user = await db
    .insertInto('users')
    .values({ email: `${randomUUID()}@example.com`, password_hash: 'x', name: 'Test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const session = await db
    .insertInto('upload_sessions')
    .values({
      user_id: user.id,
      session_type: 'training',
      expected_files: files.length,
      expires_at: new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const photos: { id: string; file: string }[] = [];
  for (const file of files) {
    const id = randomUUID();
    const key = `photos/${user.id}/${session.id}/${id}/optimized.jpg`;
    if (!options.missing) await storage.putFile(key, path.join(FIXTURES, file));
    await db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: user.id,
        original_filename: file,
        original_key: key,
        optimized_key: key,
        thumbnail_key: key,
        mime_type: 'image/jpeg',
        width: 1024,
        height: 1024,
        size_bytes: 1,
        content_hash: id,
      })
      .execute();
    photos.push({ id, file });
  }
  for (const p of photos) {
    await queue.add(
      JOB_NAMES.checkPhoto,
      { photo_id: p.id, session_id: session.id },
      { jobId: `photo-${p.id}` },
    );
  }
  return { sessionId: session.id, photos };
}

// An upper bound on a loaded 2-core machine, not a target: the checks share it with the face
// models' threads, the engine and other suites.
async function settled(sessionId: string, timeoutMs = 200_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db
      .selectFrom('photos')
      .select(['id', 'original_filename', 'check_status', 'usable', 'checks'])
      .where('session_id', '=', sessionId)
      .execute();
    if (rows.every((r) => r.check_status !== 'pending')) return rows;
    if (Date.now() > deadline)
      throw new Error(`checks still pending: ${JSON.stringify(rows.map((r) => r.check_status))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const failedChecks = (row: { checks: unknown }) =>
  ((row.checks as { checks: { id: string; ok: boolean | null }[] }).checks ?? [])
    .filter((c) => c.ok === false)
    .map((c) => c.id);

describe('the photo-check job, through BullMQ on real Redis, Postgres and the face models', () => {
  it('judges a set: the same person passes, a stranger, two faces and a photo with no face are flagged', async () => {
    const { sessionId } = await sessionWith([
      'astronaut.jpg',
      'astronaut-mirror.jpg',
      'astronaut-warm.jpg',
      'astronaut-closer.jpg',
      'other-person.jpg',
      'two-faces.jpg',
      'no-face-texture.jpg',
    ]);
    const rows = await settled(sessionId);
    const byName = Object.fromEntries(rows.map((r) => [r.original_filename, r]));
    for (const name of [
      'astronaut.jpg',
      'astronaut-mirror.jpg',
      'astronaut-warm.jpg',
      'astronaut-closer.jpg',
    ]) {
      expect(byName[name]).toMatchObject({ check_status: 'done', usable: true });
    }
    expect(failedChecks(byName['other-person.jpg']!)).toContain('same_person');
    expect(failedChecks(byName['two-faces.jpg']!)).toContain('single_face');
    expect(failedChecks(byName['no-face-texture.jpg']!)).toContain('face_found');
    for (const name of ['other-person.jpg', 'two-faces.jpg', 'no-face-texture.jpg']) {
      expect(byName[name]!.usable).toBe(false);
      expect((byName[name]!.checks as { advice: string[] }).advice.length).toBeGreaterThan(0);
    }
  });

  it('re-judges the set when photos leave it', async () => {
    // Two people, half and half: nobody matches most of the others, so everyone is flagged.
    const { sessionId } = await sessionWith([
      'astronaut.jpg',
      'astronaut-warm.jpg',
      'other-person.jpg',
      'other-person-2.jpg',
    ]);
    const before = await settled(sessionId);
    const astronauts = before.filter((r) => r.original_filename.startsWith('astronaut'));
    for (const row of astronauts) expect(failedChecks(row)).toContain('same_person');
    await db
      .deleteFrom('photos')
      .where('session_id', '=', sessionId)
      .where('original_filename', 'like', 'other-person%')
      .execute();
    await queue.add(JOB_NAMES.rejudgePhotoSet, { session_id: sessionId });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await db
        .selectFrom('photos')
        .select(['usable'])
        .where('session_id', '=', sessionId)
        .execute();
      if (rows.every((r) => r.usable === true)) break;
      if (Date.now() > deadline) throw new Error('the set was not re-judged');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('counts a flagged photo its owner confirmed ("This is me") however often the set is judged again', async () => {
    const { sessionId } = await sessionWith([
      'astronaut.jpg',
      'astronaut-warm.jpg',
      'astronaut-mirror.jpg',
      'other-person.jpg',
      'two-faces.jpg',
    ]);
    const rows = await settled(sessionId);
    const flagged = rows.find((r) => r.original_filename === 'other-person.jpg')!;
    const group = rows.find((r) => r.original_filename === 'two-faces.jpg')!;
    expect(failedChecks(flagged)).toEqual(['same_person']);
    expect(flagged.usable).toBe(false);
    // The API records the overrule under the session lock; a later judging must keep it.
    await db
      .updateTable('photos')
      .set({ same_person_confirmed_at: new Date() })
      .where('id', 'in', [flagged.id, group.id])
      .execute();
    await rejudgePhotoSet(db, { session_id: sessionId });
    const after = await db
      .selectFrom('photos')
      .select(['id', 'usable', 'checks'])
      .where('session_id', '=', sessionId)
      .execute();
    const confirmed = after.find((r) => r.id === flagged.id)!;
    expect(confirmed.usable).toBe(true);
    // The check's own verdict stays as it was: the warning the owner answered.
    expect(failedChecks(confirmed)).toEqual(['same_person']);
    // Only the same-person check can be overruled: two faces stay two faces.
    const stillGroup = after.find((r) => r.id === group.id)!;
    expect(failedChecks(stillGroup)).toContain('single_face');
    expect(stillGroup.usable).toBe(false);
  });

  it('leaves a completed set as it was counted for training', async () => {
    const { sessionId } = await sessionWith([
      'astronaut.jpg',
      'astronaut-warm.jpg',
      'other-person.jpg',
      'other-person-2.jpg',
    ]);
    const counted = await settled(sessionId);
    expect(counted.every((r) => r.usable === false)).toBe(true);
    // Completed (the API counts and closes under the session lock), then a late re-judge arrives,
    // as after a photo deleted just before: the verdicts training relies on do not move.
    await db
      .updateTable('upload_sessions')
      .set({ status: 'completed', completed_at: new Date() })
      .where('id', '=', sessionId)
      .execute();
    await db
      .deleteFrom('photos')
      .where('session_id', '=', sessionId)
      .where('original_filename', 'like', 'other-person%')
      .execute();
    await rejudgePhotoSet(db, { session_id: sessionId });
    const after = await db
      .selectFrom('photos')
      .select(['id', 'usable', 'checks'])
      .where('session_id', '=', sessionId)
      .execute();
    expect(after).toHaveLength(2);
    for (const row of after) {
      expect(row).toEqual({
        id: row.id,
        usable: false,
        checks: counted.find((c) => c.id === row.id)?.checks,
      });
    }
  });

  it('reports a photo it cannot read after its retries, instead of leaving it checking', async () => {
    const { sessionId } = await sessionWith(['astronaut.jpg'], { missing: true });
    const [row] = await settled(sessionId);
    expect(row).toMatchObject({ check_status: 'failed', usable: false });
  });
});
