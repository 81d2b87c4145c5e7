import { describe, expect, it } from 'vitest';
import {
  checkPhotoSet,
  countUsable,
  euclideanDistance,
  faceIsComparable,
  identityFaces,
  PHOTO_ADVICE,
  significantFaces,
} from './check-photo-set.js';
import {
  MIN_FACE_HEIGHT_PX,
  MIN_FACE_SHARPNESS,
  MIN_LANDMARK_SPAN,
  MIN_PHOTO_SIDE_PX,
  SAME_PERSON_MAX_DISTANCE,
} from './thresholds.js';
import { PHOTO_CHECK_IDS, type PhotoCheckId, type PhotoVerdict } from '@studioshot/contracts';
import {
  PHOTO_ANALYSIS_VERSION,
  ZPhotoAnalysisSchema,
  type FaceBox,
  type PhotoAnalysis,
} from './types.js';

/** Deterministic pseudo-random numbers (mulberry32), so synthetic descriptors are stable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVector(rand: () => number, length: number): number[] {
  const v = Array.from({ length: 128 }, () => rand() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => (x / norm) * length);
}

/** A synthetic person: photos of them are ~0.3 apart, two people ~1.0 apart (like the real model). */
function person(seed: number) {
  const rand = random(seed);
  const centre = randomVector(rand, 0.7);
  return () => {
    const noise = randomVector(rand, 0.2);
    return centre.map((x, i) => x + (noise[i] ?? 0));
  };
}

const face = (height: number, over: Partial<FaceBox> = {}): FaceBox => ({
  x: 100,
  y: 100,
  width: Math.round(height * 0.8),
  height,
  score: 0.98,
  ...over,
});

const alice = person(1);
const bob = person(2);

function analysis(over: Partial<PhotoAnalysis> = {}): PhotoAnalysis {
  const width = over.width ?? 1024;
  const height = over.height ?? 1024;
  const faces = over.faces ?? [face(300)];
  const main = faces[0];
  return {
    version: PHOTO_ANALYSIS_VERSION,
    width,
    height,
    faces,
    largestFaceRatio: main ? main.height / height : null,
    sharpness: main ? 250 : null,
    descriptor: main ? alice() : null,
    otherFaceDescriptors: [],
    ...over,
  };
}

function checkOf(verdict: PhotoVerdict | undefined, id: PhotoCheckId) {
  const found = verdict?.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} check`);
  return found;
}

function only(a: PhotoAnalysis): PhotoVerdict {
  const [verdict] = checkPhotoSet([a]);
  if (!verdict) throw new Error('no verdict');
  return verdict;
}

describe('checkPhotoSet: one photo at a time', () => {
  it('passes a sharp, large, single face at a good resolution', () => {
    const verdict = only(analysis());
    expect(verdict.usable).toBe(true);
    expect(verdict.advice).toEqual([]);
    expect(verdict.checks.map((c) => c.id)).toEqual([...PHOTO_CHECK_IDS]);
    expect(verdict.checks.filter((c) => c.id !== 'same_person').every((c) => c.ok)).toBe(true);
    // Alone, a photo cannot be compared with anything: not judged, not held against it.
    expect(checkOf(verdict, 'same_person')).toMatchObject({ ok: null });
  });

  it('flags a photo without a face, and judges nothing that needs one', () => {
    const verdict = only(analysis({ faces: [] }));
    expect(verdict.usable).toBe(false);
    expect(checkOf(verdict, 'face_found').ok).toBe(false);
    for (const id of ['single_face', 'face_size', 'sharpness', 'same_person'] as const) {
      expect(checkOf(verdict, id).ok).toBeNull();
    }
    expect(checkOf(verdict, 'resolution').ok).toBe(true);
    expect(verdict.advice).toEqual([
      "We couldn't find a face in this photo. Use a photo where your face is clearly visible.",
    ]);
  });

  it('flags two faces of similar size, naming how many', () => {
    const verdict = only(analysis({ faces: [face(300), face(260, { x: 600 })] }));
    expect(verdict.usable).toBe(false);
    expect(checkOf(verdict, 'single_face')).toEqual({
      id: 'single_face',
      ok: false,
      message: 'We found 2 faces',
    });
    expect(verdict.advice).toEqual([PHOTO_ADVICE.single_face]);
  });

  it('ignores a face far smaller than the main one (a stranger in the background)', () => {
    const faces = [face(300), face(120, { x: 800 })];
    expect(significantFaces(faces)).toHaveLength(1);
    expect(only(analysis({ faces })).usable).toBe(true);
    // Half the main face's height is already a second person.
    expect(significantFaces([face(300), face(150)])).toHaveLength(2);
  });

  it('flags a face that fills too little of the photo', () => {
    // 90 px is enough pixels, but only 9% of a 1024 px photo: a distant shot.
    const verdict = only(analysis({ faces: [face(90)] }));
    expect(checkOf(verdict, 'face_size').ok).toBe(false);
    expect(verdict.advice).toEqual([PHOTO_ADVICE.face_size]);
  });

  it('flags a face with too few pixels even when it fills the frame', () => {
    const small = MIN_FACE_HEIGHT_PX - 1;
    const verdict = only(analysis({ width: 600, height: 600, faces: [face(small)] }));
    expect(checkOf(verdict, 'face_size').ok).toBe(false);
    // Its sharpness would be measured on an upsampled face: not judged, no "blurry" on top.
    expect(checkOf(verdict, 'sharpness').ok).toBeNull();
    expect(verdict.advice).toEqual([PHOTO_ADVICE.face_size]);
  });

  it('flags a blurry face, with the threshold itself passing', () => {
    const blurry = only(analysis({ sharpness: MIN_FACE_SHARPNESS - 0.1 }));
    expect(checkOf(blurry, 'sharpness')).toMatchObject({ ok: false, message: 'Blurry' });
    expect(blurry.advice).toEqual([PHOTO_ADVICE.sharpness]);
    expect(only(analysis({ sharpness: MIN_FACE_SHARPNESS })).usable).toBe(true);
  });

  it('flags a photo whose shorter side is under the 512 px the spec recommends', () => {
    const portrait = only(
      analysis({ width: MIN_PHOTO_SIDE_PX - 1, height: 900, faces: [face(300)] }),
    );
    expect(checkOf(portrait, 'resolution')).toEqual({
      id: 'resolution',
      ok: false,
      message: 'Too small: 511×900 px, needs 512 px on each side',
    });
    expect(portrait.advice).toEqual([PHOTO_ADVICE.resolution]);
    const exact = only(analysis({ width: 512, height: 512, faces: [face(200)] }));
    expect(checkOf(exact, 'resolution')).toMatchObject({
      ok: true,
      message: 'Resolution 512×512 px',
    });
  });

  it('gives one piece of advice per failed check, in check order', () => {
    const verdict = only(
      analysis({ width: 400, height: 300, faces: [face(30), face(28)], sharpness: 5 }),
    );
    expect(verdict.advice).toEqual([
      PHOTO_ADVICE.single_face,
      PHOTO_ADVICE.face_size,
      PHOTO_ADVICE.resolution,
    ]);
  });
});

describe('checkPhotoSet: same person across the set', () => {
  it('the synthetic people behave like the real descriptor', () => {
    const a1 = alice();
    expect(euclideanDistance(a1, alice())).toBeLessThan(SAME_PERSON_MAX_DISTANCE);
    expect(euclideanDistance(a1, bob())).toBeGreaterThan(SAME_PERSON_MAX_DISTANCE);
    expect(euclideanDistance(a1, a1)).toBe(0);
    expect(() => euclideanDistance([1, 2], [1])).toThrow(RangeError);
  });

  it('flags the one photo of someone else and passes the rest', () => {
    const set = [
      ...Array.from({ length: 9 }, () => analysis({ descriptor: alice() })),
      analysis({ descriptor: bob() }),
    ];
    const verdicts = checkPhotoSet(set);
    expect(verdicts.slice(0, 9).every((v) => v.usable)).toBe(true);
    expect(verdicts.slice(0, 9).map((v) => checkOf(v, 'same_person').message)).toEqual(
      Array(9).fill('Matches your other photos'),
    );
    const stranger = verdicts[9];
    expect(stranger?.usable).toBe(false);
    expect(checkOf(stranger, 'same_person')).toEqual({
      id: 'same_person',
      ok: false,
      message: 'Matches 0 of your 9 other photos',
    });
    expect(stranger?.advice).toEqual([PHOTO_ADVICE.same_person]);
    expect(countUsable(verdicts)).toBe(9);
  });

  it('needs two other single-face photos before judging identity', () => {
    const two = checkPhotoSet([analysis({ descriptor: alice() }), analysis({ descriptor: bob() })]);
    expect(two.map((v) => checkOf(v, 'same_person').ok)).toEqual([null, null]);
    expect(two.every((v) => v.usable)).toBe(true);
    const three = checkPhotoSet([
      analysis({ descriptor: alice() }),
      analysis({ descriptor: alice() }),
      analysis({ descriptor: bob() }),
    ]);
    expect(three.map((v) => checkOf(v, 'same_person').ok)).toEqual([true, true, false]);
  });

  it('does not take a group photo as a reference, but still judges its main face', () => {
    const group = analysis({ faces: [face(300), face(280)], descriptor: bob() });
    const set = [
      analysis({ descriptor: alice() }),
      analysis({ descriptor: alice() }),
      group,
      analysis({ descriptor: bob() }),
    ];
    const verdicts = checkPhotoSet(set);
    // Bob's single photo is compared with the two of Alice only (not with the group photo).
    expect(checkOf(verdicts[3], 'same_person').message).toBe('Matches 0 of your 2 other photos');
    expect(checkOf(verdicts[2], 'same_person').ok).toBe(false);
    expect(checkOf(verdicts[0], 'same_person').ok).toBe(true);
  });

  it('does not let photos too small or blurry to train on outvote the good ones', () => {
    // Alice's 6 good photos and 8 of her photos with a face too small to describe well: their
    // descriptors scatter far from hers and from each other.
    const scatter = random(7);
    const good = Array.from({ length: 6 }, () => analysis({ descriptor: alice() }));
    const weak = Array.from({ length: 8 }, () =>
      analysis({
        faces: [face(60)],
        descriptor: alice().map((x) => x + (scatter() - 0.5) * 0.2),
      }),
    );
    expect(euclideanDistance(weak[0]!.descriptor!, good[0]!.descriptor!)).toBeGreaterThan(
      SAME_PERSON_MAX_DISTANCE,
    );
    const verdicts = checkPhotoSet([...good, ...weak]);
    // The good photos are judged against each other only: each matches the 5 others.
    expect(verdicts.slice(0, 6).map((v) => checkOf(v, 'same_person'))).toEqual(
      Array(6).fill({ id: 'same_person', ok: true, message: 'Matches your other photos' }),
    );
    expect(verdicts.slice(0, 6).every((v) => v.usable)).toBe(true);
    // The weak ones are judged against the good ones, and are unusable for their size anyway.
    expect(checkOf(verdicts[6], 'same_person').message).toBe('Matches 0 of your 6 other photos');
    expect(verdicts[6]?.usable).toBe(false);
  });

  it('flags everyone in a set split evenly between two people', () => {
    const set = [alice(), alice(), bob(), bob()].map((descriptor) => analysis({ descriptor }));
    expect(checkPhotoSet(set).map((v) => checkOf(v, 'same_person').ok)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('judges a photo by its face that is the person when its largest box is not', () => {
    // A false box over the clothes, bigger than the face, with a descriptor that is nobody's.
    const clothes = person(3);
    const edited = analysis({
      faces: [face(600), face(200, { y: 20 })],
      descriptor: clothes(),
      otherFaceDescriptors: [alice()],
    });
    const set = [...Array.from({ length: 6 }, () => analysis({ descriptor: alice() })), edited];
    const verdicts = checkPhotoSet(set);
    expect(verdicts.map((v) => checkOf(v, 'same_person').ok)).toEqual(Array(7).fill(true));
    expect(verdicts.every((v) => v.usable)).toBe(true);
    // Judged by its largest box alone, as before, it was someone else.
    const largestOnly = checkPhotoSet([
      ...set.slice(0, 6),
      { ...edited, otherFaceDescriptors: [] },
    ]);
    expect(checkOf(largestOnly[6], 'same_person').message).toBe('Matches 0 of your 6 other photos');
  });

  it('lets no stranger in through a second face that is not the person either', () => {
    const clothes = person(3);
    const alices = Array.from({ length: 6 }, () => analysis({ descriptor: alice() }));
    const strangers = [
      analysis({
        faces: [face(600), face(200)],
        descriptor: clothes(),
        otherFaceDescriptors: [bob()],
      }),
      analysis({
        faces: [face(300), face(120)],
        descriptor: bob(),
        otherFaceDescriptors: [clothes()],
      }),
      analysis({ faces: [face(300), face(120)], descriptor: bob(), otherFaceDescriptors: [null] }),
    ];
    for (const stranger of strangers) {
      const verdicts = checkPhotoSet([...alices, stranger]);
      expect(checkOf(verdicts[6], 'same_person')).toEqual({
        id: 'same_person',
        ok: false,
        message: 'Matches 0 of your 6 other photos',
      });
      expect(verdicts.slice(0, 6).every((v) => v.usable)).toBe(true);
    }
  });

  it('still counts a second person as big as the first, whoever of them matches', () => {
    const group = analysis({
      faces: [face(300), face(280)],
      descriptor: bob(),
      otherFaceDescriptors: [alice()],
    });
    const verdicts = checkPhotoSet([
      ...Array.from({ length: 4 }, () => analysis({ descriptor: alice() })),
      group,
    ]);
    expect(checkOf(verdicts[4], 'single_face')).toEqual({
      id: 'single_face',
      ok: false,
      message: 'We found 2 faces',
    });
    expect(verdicts[4]?.usable).toBe(false);
  });

  it('does not judge a face whose landmarks did not fit, nor judge others by it', () => {
    // Landmarks collapsed onto one eye (a face seen from above): the descriptor is of an eyelid,
    // far from every photo of the person.
    const eyelid = person(4);
    const collapsed = analysis({
      faces: [face(300, { landmarkSpan: 0.33 })],
      descriptor: eyelid(),
    });
    const alices = Array.from({ length: 6 }, () =>
      analysis({ faces: [face(300, { landmarkSpan: 1.2 })], descriptor: alice() }),
    );
    const verdicts = checkPhotoSet([...alices, collapsed]);
    expect(checkOf(verdicts[6], 'same_person')).toEqual({
      id: 'same_person',
      ok: null,
      message: 'Face turned away: not compared',
    });
    expect(verdicts.every((v) => v.usable)).toBe(true);
    expect(countUsable(verdicts)).toBe(7);
    // The check that compared every face called it someone else's.
    const compared = { ...collapsed, faces: [face(300)] };
    expect(checkOf(checkPhotoSet([...alices, compared])[6], 'same_person')).toMatchObject({
      ok: false,
      message: 'Matches 0 of your 6 other photos',
    });
    // Nor is it a reference: two good photos and three collapsed ones leave each good photo one
    // other photo to be judged against, too few.
    const few = checkPhotoSet([alices[0]!, alices[1]!, collapsed, collapsed, collapsed]);
    expect(few.map((v) => checkOf(v, 'same_person').message)).toEqual([
      'Not enough photos to compare yet',
      'Not enough photos to compare yet',
      'Face turned away: not compared',
      'Face turned away: not compared',
      'Face turned away: not compared',
    ]);
  });

  it('compares a face whose landmarks span the threshold, and finds the person beside a collapsed face', () => {
    expect(faceIsComparable(face(300, { landmarkSpan: MIN_LANDMARK_SPAN }))).toBe(true);
    expect(faceIsComparable(face(300, { landmarkSpan: MIN_LANDMARK_SPAN - 0.01 }))).toBe(false);
    // Analyses without the span (faces not described) are compared as they are.
    expect(faceIsComparable(face(300))).toBe(true);
    const alices = Array.from({ length: 4 }, () => analysis({ descriptor: alice() }));
    // A stranger's face is judged as before, landmarks fitting.
    const stranger = analysis({ faces: [face(300, { landmarkSpan: 1.1 })], descriptor: bob() });
    expect(checkOf(checkPhotoSet([...alices, stranger])[4], 'same_person').ok).toBe(false);
    // The largest box's landmarks collapsed, the second face is the person: judged by it.
    const eyelid = person(4);
    const twoBoxes = analysis({
      faces: [face(600, { landmarkSpan: 0.5 }), face(200, { landmarkSpan: 1.1 })],
      descriptor: eyelid(),
      otherFaceDescriptors: [alice()],
    });
    expect(identityFaces([...alices, twoBoxes])[4]).toBe(1);
    expect(checkOf(checkPhotoSet([...alices, twoBoxes])[4], 'same_person').ok).toBe(true);
  });

  it('leaves photos without a face out of the comparison', () => {
    const set = [
      analysis({ descriptor: alice() }),
      analysis({ faces: [] }),
      analysis({ descriptor: alice() }),
      analysis({ descriptor: alice() }),
    ];
    const verdicts = checkPhotoSet(set);
    expect(checkOf(verdicts[1], 'same_person')).toMatchObject({ ok: null });
    expect(checkOf(verdicts[0], 'same_person').ok).toBe(true);
    expect(countUsable(verdicts)).toBe(3);
  });
});

describe('ZPhotoAnalysisSchema', () => {
  it('round-trips an analysis through JSON, as a job stores it', () => {
    const a = analysis();
    expect(ZPhotoAnalysisSchema.parse(JSON.parse(JSON.stringify(a)))).toEqual(a);
  });

  it('rejects an analysis from another version or with a short descriptor', () => {
    expect(ZPhotoAnalysisSchema.safeParse({ ...analysis(), version: 0 }).success).toBe(false);
    expect(ZPhotoAnalysisSchema.safeParse({ ...analysis(), descriptor: [0.1] }).success).toBe(
      false,
    );
  });
});
