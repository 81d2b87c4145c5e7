import {
  euclideanDistance,
  SAME_PERSON_MAX_DISTANCE,
  type PhotoAnalyzer,
} from '../photo-checks/index.js';

/**
 * Ranks generated images by how much they look like the person: each image's main face is
 * described with the same face-api descriptor the photo checks compute, and compared with the
 * descriptors of the photos the model was trained on (kept with the model, so no photo is read).
 */

export interface RankedImage<T> {
  item: T;
  /** Median distance to the reference descriptors; null when no face was found. */
  distance: number | null;
  /** 0..1, higher is more alike: 1 at distance 0, 0 at twice the same-person threshold. */
  score: number | null;
}

/** Distance to the references: the median, so one odd reference photo cannot decide. */
export function identityDistance(descriptor: number[], references: number[][]): number {
  const distances = references
    .map((ref) => euclideanDistance(descriptor, ref))
    .sort((a, b) => a - b);
  const middle = Math.floor(distances.length / 2);
  return distances.length % 2 === 1
    ? distances[middle]!
    : (distances[middle - 1]! + distances[middle]!) / 2;
}

export function identityScore(distance: number): number {
  return Math.max(0, Math.min(1, 1 - distance / (2 * SAME_PERSON_MAX_DISTANCE)));
}

/**
 * Scores each image and sorts best first: most alike first, images with no face found last
 * (in their given order). With no references every image keeps its order and a null score.
 */
export async function rankByIdentity<T extends { path: string }>(
  analyzer: Pick<PhotoAnalyzer, 'analyzePhoto'>,
  images: T[],
  references: number[][],
): Promise<RankedImage<T>[]> {
  const ranked: RankedImage<T>[] = [];
  for (const item of images) {
    if (references.length === 0) {
      ranked.push({ item, distance: null, score: null });
      continue;
    }
    const { descriptor } = await analyzer.analyzePhoto(item.path);
    const distance = descriptor ? identityDistance(descriptor, references) : null;
    ranked.push({ item, distance, score: distance === null ? null : identityScore(distance) });
  }
  // A stable sort: equal distances (and faceless images) keep their order.
  return ranked.sort((a, b) => {
    if (a.distance === null || b.distance === null) {
      return Number(a.distance === null) - Number(b.distance === null);
    }
    return a.distance - b.distance;
  });
}
