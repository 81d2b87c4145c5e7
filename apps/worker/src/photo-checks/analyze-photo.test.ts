/**
 * The real thing: face-api's models on the WASM backend, on real photos (test/fixtures, see
 * make-fixtures.mjs there for where each comes from). No mocks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhotoAnalyzer, PhotoUnreadableError, type PhotoAnalyzer } from './analyze-photo.js';
import { checkPhotoSet, euclideanDistance, PHOTO_ADVICE } from './check-photo-set.js';
import { MIN_FACE_SHARPNESS, MIN_LANDMARK_SPAN, SAME_PERSON_MAX_DISTANCE } from './thresholds.js';
import type { PhotoCheckId, PhotoVerdict } from '@studioshot/contracts';
import { ZPhotoAnalysisSchema, type FaceBox, type PhotoAnalysis } from './types.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');

let analyzer: PhotoAnalyzer;
const analyses = new Map<string, PhotoAnalysis>();

/** Each fixture is analysed once and shared between tests. */
async function analyze(name: string): Promise<PhotoAnalysis> {
  let result = analyses.get(name);
  if (!result) {
    result = await analyzer.analyzePhoto(path.join(fixtures, name));
    analyses.set(name, result);
  }
  return result;
}

async function analyzeAll(names: readonly string[]): Promise<PhotoAnalysis[]> {
  const all: PhotoAnalysis[] = [];
  for (const name of names) all.push(await analyze(name));
  return all;
}

async function verdictOf(name: string): Promise<PhotoVerdict> {
  const [verdict] = checkPhotoSet([await analyze(name)]);
  if (!verdict) throw new Error('no verdict');
  return verdict;
}

function failed(verdict: PhotoVerdict | undefined): PhotoCheckId[] {
  return (verdict?.checks ?? []).filter((c) => c.ok === false).map((c) => c.id);
}

beforeAll(async () => {
  analyzer = await createPhotoAnalyzer();
}, 120_000);

describe('createPhotoAnalyzer', () => {
  it('runs face-api on the WASM backend from files in node_modules', async () => {
    expect(analyzer.info.backend).toBe('wasm');
    expect(analyzer.info.modelDir).toContain('node_modules');
    expect(analyzer.info.wasmDir).toContain('node_modules');
    // Loaded once per process: a second call shares the same models.
    expect(await createPhotoAnalyzer()).toBe(analyzer);
  });
});

describe('analyzePhoto + checkPhotoSet on real photos', () => {
  it('passes one sharp face (the astronaut portrait)', async () => {
    const a = await analyze('astronaut.jpg');
    expect(ZPhotoAnalysisSchema.parse(a)).toEqual(a);
    expect(a).toMatchObject({ width: 512, height: 512 });
    expect(a.faces).toHaveLength(1);
    const [main] = a.faces;
    // The face sits in the upper middle of the portrait.
    expect(main?.x).toBeGreaterThan(150);
    expect((main?.x ?? 0) + (main?.width ?? 0)).toBeLessThan(300);
    expect(main?.score).toBeGreaterThan(0.9);
    expect(a.largestFaceRatio).toBeGreaterThan(0.15);
    expect(a.sharpness).toBeGreaterThan(MIN_FACE_SHARPNESS);
    expect(a.descriptor).toHaveLength(128);
    // The landmarks fit the face: their aligned frame is at least the detector's box.
    expect(main?.landmarkSpan).toBeGreaterThanOrEqual(MIN_LANDMARK_SPAN);
    const verdict = await verdictOf('astronaut.jpg');
    expect(verdict).toMatchObject({ usable: true, advice: [] });
  });

  it('applies the EXIF orientation before measuring', async () => {
    // Stored 512x585 on its side, displayed 585x512 upright.
    const a = await analyze('astronaut-exif-rotated.jpg');
    expect(a).toMatchObject({ width: 585, height: 512 });
    expect(a.faces).toHaveLength(1);
    expect((await verdictOf('astronaut-exif-rotated.jpg')).usable).toBe(true);
  });

  it('flags two faces', async () => {
    const a = await analyze('two-faces.jpg');
    expect(a.faces).toHaveLength(2);
    const verdict = await verdictOf('two-faces.jpg');
    expect(failed(verdict)).toEqual(['single_face']);
    expect(verdict.checks.find((c) => c.id === 'single_face')?.message).toBe('We found 2 faces');
    expect(verdict.advice).toEqual([PHOTO_ADVICE.single_face]);
  });

  it.each(['no-face-texture.jpg', 'no-face-background.jpg'])('flags no face: %s', async (name) => {
    const a = await analyze(name);
    expect(a).toMatchObject({
      faces: [],
      largestFaceRatio: null,
      sharpness: null,
      descriptor: null,
    });
    const verdict = await verdictOf(name);
    expect(verdict.usable).toBe(false);
    expect(failed(verdict)[0]).toBe('face_found');
    expect(verdict.advice[0]).toBe(
      "We couldn't find a face in this photo. Use a photo where your face is clearly visible.",
    );
  });

  it('flags a photo under 512 px even when the face in it is fine', async () => {
    const verdict = await verdictOf('low-res.jpg');
    expect(failed(verdict)).toEqual(['resolution']);
    expect(verdict.advice).toEqual([PHOTO_ADVICE.resolution]);
  });

  it('flags a tiny photo: too few pixels, and too small a face', async () => {
    expect(failed(await verdictOf('tiny.jpg'))).toEqual(['face_size', 'resolution']);
  });

  it('flags a face too small in a big enough photo (a distant shot)', async () => {
    const a = await analyze('small-face.jpg');
    expect(a.faces).toHaveLength(1);
    expect(a.largestFaceRatio).toBeLessThan(0.1);
    expect(failed(await verdictOf('small-face.jpg'))).toEqual(['face_size']);
  });

  it('flags a blurred photo, the face still found', async () => {
    const sharp = await analyze('astronaut.jpg');
    const blurred = await analyze('blurred.jpg');
    expect(blurred.faces).toHaveLength(1);
    expect(blurred.sharpness).toBeLessThan((sharp.sharpness ?? 0) / 4);
    const verdict = await verdictOf('blurred.jpg');
    expect(failed(verdict)).toEqual(['sharpness']);
    expect(verdict.advice).toEqual([PHOTO_ADVICE.sharpness]);
  });

  it('refuses a photo too blurred for the detector at its own scale as blurry, not as faceless', async () => {
    const blurred = await analyze('blurred-strong.jpg');
    expect(blurred.faces).toHaveLength(1);
    // Its box lies on the face, as the sharp photo's does.
    const face = (await analyze('astronaut.jpg')).faces[0]!;
    expect(Math.abs(blurred.faces[0]!.x - face.x)).toBeLessThan(face.width / 4);
    expect(Math.abs(blurred.faces[0]!.y - face.y)).toBeLessThan(face.height / 4);
    expect(blurred.sharpness).toBeLessThan(MIN_FACE_SHARPNESS);
    const verdict = await verdictOf('blurred-strong.jpg');
    expect(failed(verdict)).toEqual(['sharpness']);
    expect(verdict.advice).toEqual([PHOTO_ADVICE.sharpness]);
  });

  it('leaves no tensors behind, whatever the photo holds', async () => {
    await analyzer.analyzePhoto(path.join(fixtures, 'astronaut.jpg'));
    const before = analyzer.tensorsInUse();
    for (const name of ['two-faces.jpg', 'no-face-texture.jpg', 'astronaut-closer.jpg']) {
      await analyzer.analyzePhoto(path.join(fixtures, name));
    }
    expect(analyzer.tensorsInUse()).toBe(before);
  });

  it('rejects a file that is not an image', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'photo-checks-'));
    try {
      const file = path.join(dir, 'selfie.jpg');
      await writeFile(file, 'not really a jpeg');
      await expect(analyzer.analyzePhoto(file)).rejects.toBeInstanceOf(PhotoUnreadableError);
      await expect(analyzer.analyzePhoto(path.join(dir, 'missing.jpg'))).rejects.toThrow(
        'Could not read an image from missing.jpg',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('same person across a set of real photos', () => {
  const samePerson = [
    'astronaut.jpg',
    'astronaut-mirror.jpg',
    'astronaut-warm.jpg',
    'astronaut-tilted.jpg',
    'astronaut-closer.jpg',
    'astronaut-low-quality.jpg',
  ];

  it('describes the same person close together and different people far apart', async () => {
    const astronaut = (await analyze('astronaut.jpg')).descriptor ?? [];
    const mirror = (await analyze('astronaut-mirror.jpg')).descriptor ?? [];
    const other = (await analyze('other-person.jpg')).descriptor ?? [];
    const other2 = (await analyze('other-person-2.jpg')).descriptor ?? [];
    expect(euclideanDistance(astronaut, mirror)).toBeLessThan(SAME_PERSON_MAX_DISTANCE / 2);
    expect(euclideanDistance(astronaut, other)).toBeGreaterThan(SAME_PERSON_MAX_DISTANCE);
    expect(euclideanDistance(astronaut, other2)).toBeGreaterThan(SAME_PERSON_MAX_DISTANCE);
    expect(euclideanDistance(other, other2)).toBeGreaterThan(SAME_PERSON_MAX_DISTANCE);
  });

  it('flags a different person as the outlier while the others pass', async () => {
    const names = [...samePerson.slice(0, 3), 'other-person.jpg', ...samePerson.slice(3)];
    const verdicts = checkPhotoSet(await analyzeAll(names));
    names.forEach((name, i) => {
      const verdict = verdicts[i];
      if (name === 'other-person.jpg') {
        expect(verdict?.usable, name).toBe(false);
        expect(failed(verdict), name).toEqual(['same_person']);
        expect(verdict?.advice, name).toEqual([PHOTO_ADVICE.same_person]);
      } else {
        expect(verdict?.usable, name).toBe(true);
        expect(verdict?.checks.find((c) => c.id === 'same_person')?.ok, name).toBe(true);
      }
    });
  });

  it('flags two strangers among one person, and not a blurred photo of that person', async () => {
    const names = [...samePerson, 'other-person.jpg', 'other-person-2.jpg', 'blurred.jpg'];
    const verdicts = checkPhotoSet(await analyzeAll(names));
    const samePersonOk = verdicts.map((v) => v.checks.find((c) => c.id === 'same_person')?.ok);
    expect(samePersonOk).toEqual([true, true, true, true, true, true, false, false, true]);
    expect(verdicts.filter((v) => v.usable)).toHaveLength(samePerson.length);
  });
});

/** A variant of a portrait: turned (degrees, clockwise), mirrored, cropped, exposed. */
interface Variant {
  rotate?: number;
  mirror?: boolean;
  /** Crop side in face heights (2.4 by default). */
  scale?: number;
  /** Crop centre moved by this many face widths. */
  dx?: number;
  brightness?: number;
}

/**
 * A 1024 px JPEG of one person of a group photo (everyone else painted out), varied: what a user
 * who uploads copies of one portrait sends (bench/same-person.ts makes the same variants).
 */
async function portraitVariant(
  photo: string,
  face: FaceBox,
  others: FaceBox[],
  variant: Variant,
): Promise<Buffer> {
  const masks = await Promise.all(
    others.map(async (o) => ({
      input: await sharp({
        create: {
          width: Math.round(o.width * 1.5),
          height: Math.round(o.height * 1.6),
          channels: 3,
          background: '#6f6a64',
        },
      })
        .png()
        .toBuffer(),
      left: Math.max(0, Math.round(o.x - o.width * 0.25)),
      top: Math.max(0, Math.round(o.y - o.height * 0.35)),
    })),
  );
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const side = Math.round(face.height * (variant.scale ?? 2.4));
  // A region half as big again (mirrored out past the photo's edges), turned, then its centre
  // cut: no empty corners.
  const big = Math.round(side * 1.5);
  const left = Math.round(face.x + face.width * (0.5 + (variant.dx ?? 0)) - big / 2);
  const top = Math.round(face.y + face.height * 0.6 - big / 2);
  const inLeft = Math.max(0, left);
  const inTop = Math.max(0, top);
  let region = await sharp(await sharp(photo).composite(masks).toBuffer())
    .extract({
      left: inLeft,
      top: inTop,
      width: Math.min(width, left + big) - inLeft,
      height: Math.min(height, top + big) - inTop,
    })
    .extend({
      left: inLeft - left,
      top: inTop - top,
      right: Math.max(0, left + big - width),
      bottom: Math.max(0, top + big - height),
      extendWith: 'mirror',
    })
    .toBuffer();
  if (variant.rotate) region = await sharp(region).rotate(variant.rotate).toBuffer();
  const turned = await sharp(region).metadata();
  let image = sharp(
    await sharp(region)
      .extract({
        left: Math.round(((turned.width ?? side) - side) / 2),
        top: Math.round(((turned.height ?? side) - side) / 2),
        width: side,
        height: side,
      })
      .toBuffer(),
  );
  if (variant.mirror) image = image.flop();
  if (variant.brightness) image = image.modulate({ brightness: variant.brightness });
  return image.resize(1024, 1024).jpeg({ quality: 85 }).toBuffer();
}

describe('same person across variants of one portrait', () => {
  const sample1 = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
    'demo/sample1.jpg',
  );
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'same-person-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function analyzeVariants(face: FaceBox, others: FaceBox[], variants: Variant[]) {
    const all: PhotoAnalysis[] = [];
    for (const [i, variant] of variants.entries()) {
      const file = path.join(dir, `${face.x}-${i}.jpg`);
      await writeFile(file, await portraitVariant(sample1, face, others, variant));
      all.push(await analyzer.analyzePhoto(file));
    }
    return all;
  }

  it('passes all 20 copies of one portrait, turned both ways and mirrored, and still flags a stranger', async () => {
    // The middle one of the three people in face-api's sample 1; the other two are strangers.
    const { faces } = await analyzer.analyzePhoto(sample1);
    expect(faces).toHaveLength(3);
    const [stranger, person, other] = faces as [FaceBox, FaceBox, FaceBox];
    const variants: Variant[] = [
      { rotate: 0 },
      { rotate: 3 },
      { rotate: 6 },
      { rotate: 9 },
      { rotate: 12 },
      { rotate: 15 },
      { rotate: 9, scale: 1.8 },
      { rotate: 12, brightness: 0.6 },
      { scale: 1.7 },
      { scale: 3.2 },
      { dx: -0.3 },
      { brightness: 0.6 },
      { mirror: true, rotate: 3 },
      { mirror: true, rotate: 6 },
      { mirror: true, rotate: 9 },
      { mirror: true, rotate: 12 },
      { mirror: true, rotate: 15 },
      // Mirrored and turned the other way: face-api's descriptor of the face box as found put
      // these three more than 0.6 from most of the others, and the old check flagged them as
      // someone else. Levelled and described with its mirror image, every copy is within 0.2.
      { mirror: true, rotate: -9 },
      { mirror: true, rotate: -12 },
      { mirror: true, rotate: -15 },
    ];
    const copies = await analyzeVariants(person, [stranger, other], variants);
    expect(copies.every((a) => a.descriptor !== null)).toBe(true);
    const samePerson = (set: PhotoAnalysis[]) =>
      checkPhotoSet(set).map((v) => v.checks.find((c) => c.id === 'same_person')?.ok);
    expect(samePerson(copies)).toEqual(Array(variants.length).fill(true));
    const spread = Math.max(
      ...copies.flatMap((a) => copies.map((b) => euclideanDistance(a.descriptor!, b.descriptor!))),
    );
    expect(spread).toBeLessThan(SAME_PERSON_MAX_DISTANCE / 2);

    // Either of the others in the same photo is still someone else.
    for (const someoneElse of [stranger, other]) {
      const [intruder] = await analyzeVariants(
        someoneElse,
        faces.filter((f) => f !== someoneElse),
        [{ rotate: 0 }],
      );
      expect(samePerson([...copies, intruder!])).toEqual([
        ...Array(variants.length).fill(true),
        false,
      ]);
    }
  }, 180_000);
});

afterAll(() => {
  analyses.clear();
});

/**
 * A phone's edit of a whole fixture photo, all at once: mirrored, turned (the part inside the
 * turned photo kept, no empty corners), cropped by `crop` off-centre, 20% brighter, then saved at a
 * phone's 1200 px width (bench/same-person.ts makes the same edits, 20 per face).
 */
async function phoneEdit(name: string, rotate: number, crop: number): Promise<Buffer> {
  const source = path.join(fixtures, name);
  const { width = 0, height = 0 } = await sharp(source).metadata();
  const turned = await sharp(source)
    .flop()
    .rotate(rotate, { background: '#777777' })
    .toBuffer({ resolveWithObject: true });
  const inset = Math.ceil(Math.max(width, height) * Math.abs(Math.sin((rotate * Math.PI) / 180)));
  const insideWidth = turned.info.width - 2 * inset;
  const insideHeight = turned.info.height - 2 * inset;
  return sharp(turned.data)
    .extract({
      left: inset + Math.round(insideWidth * crop),
      top: inset + Math.round(insideHeight * crop * 0.6),
      width: Math.round(insideWidth * (1 - crop * 1.5)),
      height: Math.round(insideHeight * (1 - crop)),
    })
    .modulate({ brightness: 1.2 })
    .resize({ width: 1200 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('same person on a phone-edited photo whose largest box is not the face', () => {
  const astronautSet = [
    'astronaut.jpg',
    'astronaut-mirror.jpg',
    'astronaut-warm.jpg',
    'astronaut-closer.jpg',
    'astronaut-tilted.jpg',
    'astronaut-low-quality.jpg',
    'astronaut-exif-rotated.jpg',
  ];
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'phone-edit-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function analyzeEdit(name: string, rotate: number, crop: number) {
    const file = path.join(dir, `${path.parse(name).name}-${rotate}-${crop}.jpg`);
    await writeFile(file, await phoneEdit(name, rotate, crop));
    return analyzer.analyzePhoto(file);
  }

  const samePersonOf = (set: PhotoAnalysis[]) =>
    checkPhotoSet(set).map((v) => v.checks.find((c) => c.id === 'same_person')?.ok);

  it('takes the mirrored, turned, cropped, brighter astronaut for the astronaut', async () => {
    const set = await analyzeAll(astronautSet);
    for (const [rotate, crop] of [
      [-9, 0.05],
      [6, 0.08],
    ] as const) {
      const edit = await analyzeEdit('astronaut.jpg', rotate, crop);
      // The detector's largest box is the suit below the face, not the face: described alone it
      // matches none of the astronaut's photos. The face is described too, and is the one judged.
      const main = edit.faces[0]!;
      const face = edit.faces[1]!;
      expect(face.y + face.height, `${rotate}°`).toBeLessThan(main.y + main.height / 2);
      expect(euclideanDistance(edit.descriptor!, set[0]!.descriptor!)).toBeGreaterThan(
        SAME_PERSON_MAX_DISTANCE,
      );
      const verdicts = checkPhotoSet([...set, edit]);
      expect(failed(verdicts.at(-1)), `${rotate}°`).toEqual([]);
      expect(samePersonOf([...set, edit]), `${rotate}°`).toEqual(Array(set.length + 1).fill(true));
    }
  }, 120_000);

  it('still flags a stranger, edited the same way or not', async () => {
    const set = await analyzeAll(astronautSet);
    for (const stranger of [
      await analyze('other-person.jpg'),
      await analyze('other-person-2.jpg'),
      await analyzeEdit('other-person.jpg', -9, 0.05),
      await analyzeEdit('other-person-2.jpg', 6, 0.08),
    ]) {
      expect(samePersonOf([...set, stranger])).toEqual([...Array(set.length).fill(true), false]);
    }
  }, 120_000);
});
