/**
 * The pure half of the photo checks: facts in (from analyze-photo.ts, or read back from storage),
 * verdicts out. No models, no I/O, so it is cheap to re-run over a whole set each time one more
 * photo's analysis lands.
 */
import {
  MIN_FACE_HEIGHT_PX,
  MIN_FACE_HEIGHT_RATIO,
  MIN_FACE_SHARPNESS,
  MIN_LANDMARK_SPAN,
  MIN_PHOTO_SIDE_PX,
  MIN_REFERENCE_PHOTOS,
  SAME_PERSON_MAX_DISTANCE,
  SAME_PERSON_MIN_MATCH_FRACTION,
  SECONDARY_FACE_MIN_RELATIVE_HEIGHT,
} from './thresholds.js';
import {
  SAME_PERSON_ADVICE,
  type PhotoCheck,
  type PhotoCheckId,
  type PhotoVerdict,
} from '@studioshot/contracts';
import type { FaceBox, PhotoAnalysis } from './types.js';

/** The plain-language advice shown under a photo for each failed check. */
export const PHOTO_ADVICE: Record<PhotoCheckId, string> = {
  face_found:
    "We couldn't find a face in this photo. Use a photo where your face is clearly visible.",
  single_face:
    'There is more than one person in this photo. Use photos of just you, or crop the others out.',
  face_size:
    'Your face is too small in this photo. Use a closer photo where your head and shoulders fill most of the frame.',
  sharpness:
    'This photo looks blurry. Use a sharp, in-focus photo: hold the camera steady and use good light.',
  resolution: `This photo is too small. Use a photo at least ${MIN_PHOTO_SIDE_PX} pixels on each side; the original from your camera works best.`,
  same_person: SAME_PERSON_ADVICE,
};

/** Faces that count as people in the photo: the main face and any face at least half its height. */
export function significantFaces(faces: readonly FaceBox[]): FaceBox[] {
  const main = faces[0];
  if (!main) return [];
  return faces.filter((face) => face.height >= main.height * SECONDARY_FACE_MIN_RELATIVE_HEIGHT);
}

export function euclideanDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError('descriptors differ in length');
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

function check(id: PhotoCheckId, ok: boolean | null, message: string): PhotoCheck {
  return { id, ok, message };
}

function resolutionCheck(a: PhotoAnalysis): PhotoCheck {
  const size = `${a.width}×${a.height} px`;
  return Math.min(a.width, a.height) >= MIN_PHOTO_SIDE_PX
    ? check('resolution', true, `Resolution ${size}`)
    : check('resolution', false, `Too small: ${size}, needs ${MIN_PHOTO_SIDE_PX} px on each side`);
}

/** The checks that only look at this one photo (all but same_person). */
function singlePhotoChecks(a: PhotoAnalysis): PhotoCheck[] {
  const main = a.faces[0];
  if (!main) {
    const noFace = 'No face to measure';
    return [
      check('face_found', false, 'No face found'),
      check('single_face', null, noFace),
      check('face_size', null, noFace),
      check('sharpness', null, noFace),
      resolutionCheck(a),
    ];
  }
  const people = significantFaces(a.faces).length;
  const ratio = a.largestFaceRatio ?? main.height / a.height;
  const faceBigEnough = ratio >= MIN_FACE_HEIGHT_RATIO && main.height >= MIN_FACE_HEIGHT_PX;
  // A face under MIN_FACE_HEIGHT_PX is upsampled to be measured, which reads as blur: judging
  // it would add a misleading "blurry" to the "too small" it already gets.
  const sharp =
    a.sharpness === null || main.height < MIN_FACE_HEIGHT_PX
      ? null
      : a.sharpness >= MIN_FACE_SHARPNESS;
  return [
    check('face_found', true, 'Face found'),
    people === 1
      ? check('single_face', true, 'Only one face')
      : check('single_face', false, `We found ${people} faces`),
    faceBigEnough
      ? check('face_size', true, 'Face is large enough')
      : check('face_size', false, 'Face is too small'),
    sharp === null
      ? check('sharpness', null, 'Face too small to judge sharpness')
      : sharp
        ? check('sharpness', true, 'Sharp')
        : check('sharpness', false, 'Blurry'),
    resolutionCheck(a),
  ];
}

/**
 * Whether a described face's descriptor is its likeness: its landmarks fit it. Where they collapsed
 * onto one eye (a face seen from above or in profile) the descriptor is of an eyelid and 0.7+ from
 * the person's every other photo: judged by it, their own photo was called someone else's.
 */
export function faceIsComparable(face: FaceBox | undefined): boolean {
  return face?.landmarkSpan === undefined || face.landmarkSpan >= MIN_LANDMARK_SPAN;
}

/**
 * Every comparable described face of a photo: its index in `faces` and its descriptor, the main
 * face first.
 */
function describedFaces(a: PhotoAnalysis): { face: number; descriptor: number[] }[] {
  return [a.descriptor, ...a.otherFaceDescriptors].flatMap((descriptor, face) =>
    descriptor && faceIsComparable(a.faces[face]) ? [{ face, descriptor }] : [],
  );
}

/**
 * Which face of each photo is the set's person (its index in `faces`, null without a described
 * face): the one matching the most other photos (any of their described faces), the nearer on a
 * tie. The largest box is usually the person, but on a mirrored, turned and cropped photo the
 * detector can frame the clothes under the face as a bigger "face", whose descriptor matches
 * nobody: judged by it, a genuine photo was called someone else's. A stranger's photo gains
 * nothing: it holds no face of the person to choose (a photo that does, beside a second person as
 * big, still fails single_face). Training crops and describes the same face.
 */
export function identityFaces(
  analyses: readonly PhotoAnalysis[],
  maxDistance: number = SAME_PERSON_MAX_DISTANCE,
): (number | null)[] {
  const described = analyses.map(describedFaces);
  return described.map((mine, index) => {
    if (mine.length <= 1) return mine[0]?.face ?? null;
    let best = { face: mine[0]!.face, matches: -1, total: Infinity };
    for (const { face, descriptor } of mine) {
      let matches = 0;
      let total = 0;
      described.forEach((theirs, other) => {
        if (other === index || theirs.length === 0) return;
        const nearest = Math.min(...theirs.map((d) => euclideanDistance(descriptor, d.descriptor)));
        if (nearest < maxDistance) matches += 1;
        total += nearest;
      });
      if (matches > best.matches || (matches === best.matches && total < best.total)) {
        best = { face, matches, total };
      }
    }
    return best.face;
  });
}

/** The descriptor of a photo's face number `face` (0 is the main face). */
export function faceDescriptor(a: PhotoAnalysis, face: number): number[] | null {
  return (face === 0 ? a.descriptor : a.otherFaceDescriptors[face - 1]) ?? null;
}

/**
 * same_person for every photo: a majority vote against the set's single-face photos.
 * Photo i matches photo j when their descriptors are closer than SAME_PERSON_MAX_DISTANCE; it shows
 * the set's person when it matches at least SAME_PERSON_MIN_MATCH_FRACTION of the others. So one
 * stranger among photos of one person matches none of them and is flagged, while each genuine
 * photo matches all but the stranger. A set split evenly between two people flags everyone, which
 * is the right answer: we cannot tell whose model it is. Each photo is represented by its face
 * that is the person (identityFaces). A photo whose faces are none of them comparable (the
 * landmarks did not fit, faceIsComparable) is not judged: we cannot tell who it shows, and saying
 * "someone else" would be a guess.
 */
function samePersonChecks(analyses: readonly PhotoAnalysis[], maxDistance: number): PhotoCheck[] {
  const identities = identityFaces(analyses, maxDistance).map((face, index) =>
    face === null ? null : faceDescriptor(analyses[index]!, face),
  );
  // The references: photos with exactly one person, whose descriptor is surely that person's, and
  // a trustworthy one: a face too small or too blurry to train on is also too small or blurry to
  // describe well, and a few such photos in a set would outvote the good ones (each good photo
  // then "matches" too few of the others). Such photos are still judged against the references.
  const references = analyses.flatMap((a, index) => {
    const descriptor = identities[index];
    return descriptor &&
      significantFaces(a.faces).length === 1 &&
      singlePhotoChecks(a).every((c) => c.id === 'resolution' || c.ok !== false)
      ? [{ index, descriptor }]
      : [];
  });
  return analyses.map((a, index) => {
    const descriptor = identities[index];
    if (!descriptor) {
      return a.descriptor || a.otherFaceDescriptors.some(Boolean)
        ? check('same_person', null, 'Face turned away: not compared')
        : check('same_person', null, 'No face to compare');
    }
    const others = references.filter((r) => r.index !== index);
    if (others.length < MIN_REFERENCE_PHOTOS) {
      return check('same_person', null, 'Not enough photos to compare yet');
    }
    const matches = others.filter(
      (r) => euclideanDistance(descriptor, r.descriptor) < maxDistance,
    ).length;
    return matches >= others.length * SAME_PERSON_MIN_MATCH_FRACTION
      ? check('same_person', true, 'Matches your other photos')
      : check('same_person', false, `Matches ${matches} of your ${others.length} other photos`);
  });
}

/**
 * Judges every photo of a set. `analyses[i]` gives `verdicts[i]`. Re-run it over the whole set
 * whenever a photo is added or removed: same_person depends on the other photos.
 */
export function checkPhotoSet(
  analyses: readonly PhotoAnalysis[],
  options: {
    /** Another same-person threshold than the product's: for bench/same-person.ts's sweep. */
    samePersonMaxDistance?: number;
  } = {},
): PhotoVerdict[] {
  const identity = samePersonChecks(
    analyses,
    options.samePersonMaxDistance ?? SAME_PERSON_MAX_DISTANCE,
  );
  return analyses.map((a, index) => {
    const samePerson = identity[index] ?? check('same_person', null, 'No face to compare');
    const checks = [...singlePhotoChecks(a), samePerson];
    const failed = checks.filter((c) => c.ok === false);
    return {
      usable: failed.length === 0,
      checks,
      advice: failed.map((c) => PHOTO_ADVICE[c.id]),
    };
  });
}

/** How many photos of the set count toward training (the spec needs 10). */
export function countUsable(verdicts: readonly PhotoVerdict[]): number {
  return verdicts.filter((v) => v.usable).length;
}
