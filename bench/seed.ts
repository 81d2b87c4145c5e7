import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { ROOT } from './common.js';

// What the benchmarks that need a trained user share: photos of one face, and a checked session.

const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');
const SOURCES = [
  'astronaut.jpg',
  'astronaut-mirror.jpg',
  'astronaut-warm.jpg',
  'astronaut-closer.jpg',
  'astronaut-tilted.jpg',
  'astronaut-low-quality.jpg',
];

/** Twelve distinct 1024 px photos of one face: six fixtures, each also mirrored. */
export async function makePhotos(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const [i, source] of SOURCES.entries()) {
    for (const mirror of [false, true]) {
      const file = path.join(dir, `photo-${i}-${mirror ? 'm' : 'o'}.jpg`);
      const image = sharp(path.join(FIXTURES, source)).rotate().resize(1024, 1024);
      await (mirror ? image.flop() : image).jpeg({ quality: 90 }).toFile(file);
      files.push(file);
    }
  }
  return files;
}

/** A completed upload session of checked, usable photos, as the upload flow leaves it. */
export async function seedCheckedSession(
  db: Db,
  storage: Storage,
  userId: string,
  files: string[],
): Promise<string> {
  const session = await db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: files.length,
      status: 'completed',
      completed_at: new Date(),
      expires_at: new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const file of files) {
    const id = randomUUID();
    const prefix = `photos/${userId}/${session.id}/${id}`;
    for (const name of ['original', 'optimized', 'thumbnail'])
      await storage.putFile(`${prefix}/${name}.jpg`, file);
    await db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: userId,
        original_filename: path.basename(file),
        original_key: `${prefix}/original.jpg`,
        optimized_key: `${prefix}/optimized.jpg`,
        thumbnail_key: `${prefix}/thumbnail.jpg`,
        mime_type: 'image/jpeg',
        width: 1024,
        height: 1024,
        size_bytes: 1,
        content_hash: id,
        check_status: 'done',
        usable: true,
        checks: JSON.stringify({ usable: true, checks: [], advice: [] }),
      })
      .execute();
  }
  return session.id;
}
