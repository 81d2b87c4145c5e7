import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createPhotoAnalyzer,
  SAME_PERSON_MAX_DISTANCE,
  type PhotoAnalyzer,
} from '../photo-checks/index.js';
import { identityScore, rankByIdentity } from './rank-images.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const fixture = (name: string) => ({ name, path: path.join(FIXTURES, name) });

let analyzer: PhotoAnalyzer;
let references: number[][];

beforeAll(async () => {
  analyzer = await createPhotoAnalyzer();
  references = [];
  for (const name of ['astronaut.jpg', 'astronaut-closer.jpg', 'astronaut-mirror.jpg']) {
    references.push((await analyzer.analyzePhoto(fixture(name).path)).descriptor!);
  }
}, 60_000);

describe('ranking generated images by likeness (real face-api descriptors)', () => {
  it('ranks another person planted among the candidates below every image of the person', async () => {
    const candidates = [
      fixture('other-person.jpg'),
      fixture('astronaut-warm.jpg'),
      fixture('astronaut-tilted.jpg'),
      fixture('astronaut-low-quality.jpg'),
    ];
    const ranked = await rankByIdentity(analyzer, candidates, references);
    expect(ranked.at(-1)!.item.name).toBe('other-person.jpg');
    const scores = ranked.map((r) => r.score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The person's own images are clearly alike; the stranger clearly is not.
    expect(Math.min(...scores.slice(0, 3))).toBeGreaterThan(scores.at(-1)! + 0.15);
  });

  it('puts an image with no face last, and keeps the order without references', async () => {
    const candidates = [fixture('no-face-texture.jpg'), fixture('other-person-2.jpg')];
    const ranked = await rankByIdentity(analyzer, candidates, references);
    expect(ranked.map((r) => r.item.name)).toEqual(['other-person-2.jpg', 'no-face-texture.jpg']);
    expect(ranked[1]).toMatchObject({ distance: null, score: null });

    const unranked = await rankByIdentity(analyzer, candidates, []);
    expect(unranked.map((r) => r.item.name)).toEqual(candidates.map((c) => c.name));
  });

  it('scores 1 at distance 0 and 0 at twice the same-person threshold', () => {
    expect(identityScore(0)).toBe(1);
    expect(identityScore(SAME_PERSON_MAX_DISTANCE)).toBeCloseTo(0.5);
    expect(identityScore(2 * SAME_PERSON_MAX_DISTANCE)).toBe(0);
    expect(identityScore(3)).toBe(0);
  });
});
