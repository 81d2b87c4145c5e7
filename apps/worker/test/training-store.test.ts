import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_ANALYSIS_VERSION, type PhotoAnalysis } from '../src/photo-checks/index.js';
import { usablePhotos } from '../src/training/training-store.js';
import { createSuite, seedTraining, type Suite } from './support/harness.js';

/**
 * What a training reads of each photo is the face the same-person check took for the set's person,
 * not the largest box: on a mirrored, turned and cropped photo the detector can frame the clothes
 * bigger than the face, and training on that box would crop and describe a suit.
 */
let suite: Suite;

beforeAll(async () => {
  suite = await createSuite();
});
afterAll(async () => {
  await suite?.close();
});

/** A unit 128-d direction, scaled: two of them from different seeds are far apart. */
function vector(seed: number, length = 0.7): number[] {
  const v = Array.from({ length: 128 }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233));
  const norm = Math.hypot(...v);
  return v.map((x) => (x / norm) * length);
}
/** One person's descriptor, a little off their centre on each photo. */
const personPhoto = (photo: number) =>
  vector(1).map((x, i) => x + (vector(100 + photo, 0.15)[i] ?? 0));

const box = (x: number, y: number, height: number) => ({
  x,
  y,
  width: Math.round(height * 0.8),
  height,
  score: 0.95,
});
const FACE = box(300, 150, 260);
const CLOTHES = box(150, 420, 560);

function analysisOf(over: Partial<PhotoAnalysis>): PhotoAnalysis {
  return {
    version: PHOTO_ANALYSIS_VERSION,
    width: 1024,
    height: 1024,
    faces: [FACE],
    largestFaceRatio: 0.25,
    sharpness: 250,
    descriptor: null,
    otherFaceDescriptors: [],
    ...over,
  };
}

describe("a training's photos", () => {
  it("read the face the same-person check chose, the clothes' larger box left out", async () => {
    const training = await seedTraining(suite);
    const [edited, older, ...plain] = training.usablePhotoIds;
    const analyses = new Map<string, unknown>(
      plain.map((id, index) => [id, analysisOf({ descriptor: personPhoto(index) })]),
    );
    // The false box over the clothes comes first (largest first), with a descriptor nobody has.
    analyses.set(
      edited!,
      analysisOf({
        faces: [CLOTHES, FACE],
        descriptor: vector(7),
        otherFaceDescriptors: [personPhoto(99)],
      }),
    );
    // An analysis of an earlier version still reads its main face.
    analyses.set(older!, { ...analysisOf({ descriptor: personPhoto(98) }), version: 2 });
    for (const [id, analysis] of analyses)
      await suite.db
        .updateTable('photos')
        .set({ analysis: JSON.stringify(analysis) })
        .where('id', '=', id)
        .execute();

    const photos = new Map(
      (await usablePhotos(suite.db, training.sessionId)).map((p) => [p.id, p]),
    );
    const { score: _score, ...faceBox } = FACE;
    expect(photos.get(edited!)).toMatchObject({ faceBox, descriptor: personPhoto(99) });
    expect(photos.get(older!)).toMatchObject({ faceBox, descriptor: personPhoto(98) });
    plain.forEach((id, index) =>
      expect(photos.get(id)).toMatchObject({ faceBox, descriptor: personPhoto(index) }),
    );
  });
});
