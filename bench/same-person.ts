// The photo checks' same-person test on photos made the way a phone makes them and uploaded the way
// the product takes them: how often it tells a user their own face is someone else's (false
// reject), and how often it takes someone else for them (stranger let in).
//
// People: the photo-check fixtures' portraits of one person alone (the astronaut, the one face the
// repository ships beyond face-api's samples: its browser tests' portraits and the templates'
// previews are made from it; and head-and-shoulders crops of samples 1 and 3), then every face in
// the sample photos shipped with @vladmandic/face-api (6 group photos, 22 faces), each made a
// portrait (everyone else in its photo painted out). From each:
//  - 17 everyday photos: crops, exposure, a slight turn, off-centre, one change at a time;
//  - 20 combined photos (seeded), each at once mirrored (a front camera), turned 3-10° either way,
//    cropped by 5-15% off-centre and 20% brighter or darker. A fixture's are edits of the whole
//    photo, head, shoulders and clothes, as a phone's editor makes them: on those the detector can
//    take the suit for the largest face, the defect the "before" column shows.
// Every photo is written as a phone writes it: a 3:4 JPEG of a phone's size (1200x1600, 1536x2048
// or, one in four, 3024x4032), half of them stored sideways with an EXIF orientation. It then goes through the
// product's upload pipeline (PhotoProcessingService: orientation, 1024 px working copy) and the
// worker's analyzer on that working copy, as a photo-check job does.
//
// Sessions, as a user uploads them:
//  - the user's report: 17 everyday photos and 3 combined ones (each triple of combined photos in
//    turn), 20 photos;
//  - 20 combined photos;
//  - 10 everyday photos and 10 combined ones.
// Strangers: each person's first "report" session plus one photo of someone else (every labelled
// stranger's every photo in turn). Different people: two faces of one group photo, or the astronaut
// and anyone; faces of different group photos may be the same person and are never labelled.
//
// The check is the product's (checkPhotoSet, its threshold swept), on the analyses as stored;
// "before" is the same check given only each photo's largest face, as it was before the other faces
// were described (the largest face is described by the same code, so its descriptor is unchanged).
//
// The analyses are kept in .local/bench/same-person (keyed by the analyzer's version and code, and
// this file's variants), so re-judging takes seconds, not the analysis's 25 CPU-minutes.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { PhotoProcessingService } from '../apps/api/src/services/photo-processing.js';
import {
  checkPhotoSet,
  createPhotoAnalyzer,
  euclideanDistance,
  faceIsComparable,
  PHOTO_ANALYSIS_VERSION,
  MIN_LANDMARK_SPAN,
  SAME_PERSON_MAX_DISTANCE,
  type PhotoAnalysis,
} from '../apps/worker/src/photo-checks/index.js';
import { machine, median, ROOT, writeResult } from './common.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const demo = path.join(
  path.dirname(
    createRequire(path.join(ROOT, 'apps/worker/package.json')).resolve(
      '@vladmandic/face-api/package.json',
    ),
  ),
  'demo',
);

interface Variant {
  name: string;
  kind: 'everyday' | 'combined';
  /** Crop side, in face heights. */
  scale: number;
  /** Crop centre shift, in face widths / heights. */
  dx: number;
  dy: number;
  /** Degrees, clockwise. */
  rotate: number;
  mirror: boolean;
  brightness: number;
  /** Combined photos: the fraction cut off (0.05-0.15) and where, -1..1 across and down. */
  crop: number;
  shift: [number, number];
  /** The phone's size (portrait) and whether the pixels are stored sideways with an EXIF tag. */
  phone: { width: number; height: number; exifRotated: boolean };
}

/** The portrait's crop: 2.4 face heights, the face a little above the centre. */
const PORTRAIT_SCALE = 2.4;
/** Phone photos' sizes: mostly as a messenger or an app resizes them, every fourth a camera's 12 MP. */
const PHONES = [
  { width: 1536, height: 2048 },
  { width: 1200, height: 1600 },
  { width: 1536, height: 2048 },
  { width: 3024, height: 4032 },
];

function variant(
  name: string,
  kind: Variant['kind'],
  index: number,
  change: Partial<Omit<Variant, 'name' | 'kind' | 'phone'>>,
): Variant {
  return {
    name,
    kind,
    scale: PORTRAIT_SCALE,
    dx: 0,
    dy: 0,
    rotate: 0,
    mirror: false,
    brightness: 1,
    crop: 0,
    shift: [0, 0],
    ...change,
    phone: { ...PHONES[index % PHONES.length]!, exifRotated: index % 2 === 1 },
  };
}

/** The photos of a user's ordinary set: one change at a time, none mirrored. */
const EVERYDAY: Variant[] = [
  ['portrait', {}],
  ['tight crop', { scale: 1.8 }],
  ['closer crop', { scale: 2.1 }],
  ['looser crop', { scale: 2.8 }],
  ['loose crop', { scale: 3.2 }],
  ['off-centre left', { dx: -0.25 }],
  ['off-centre right', { dx: 0.25 }],
  ['higher', { dy: -0.15 }],
  ['lower', { dy: 0.15 }],
  ['darker', { brightness: 0.8 }],
  ['brighter', { brightness: 1.2 }],
  ['turned 3°', { rotate: 3 }],
  ['turned -3°', { rotate: -3 }],
  ['turned 5°', { rotate: 5 }],
  ['turned -5°', { rotate: -5 }],
  ['darker, closer', { brightness: 0.9, scale: 2.1 }],
  ['brighter, looser', { brightness: 1.1, scale: 2.8 }],
].map(([name, change], i) => variant(name as string, 'everyday', i, change as Partial<Variant>));

/** A small deterministic generator, so every run makes the same photos. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMBINED_PER_FACE = 20;

/** Mirrored, turned 3-10° either way, cropped by 5-15% off-centre, 20% brighter or darker: all at once. */
function combinedVariants(seed: number): Variant[] {
  const next = random(seed);
  return Array.from({ length: COMBINED_PER_FACE }, (_, i) => {
    const degrees = 3 + 7 * next();
    const rotate = Math.round((i % 2 === 0 ? degrees : -degrees) * 10) / 10;
    const crop = 0.05 + 0.1 * next();
    const brightness = i % 4 < 2 ? 1.2 : 0.8;
    // The kept part of the portrait: (1 - crop) of its side, shifted up to the part cut away.
    const scale = PORTRAIT_SCALE * (1 - crop);
    const slack = (PORTRAIT_SCALE * crop) / 2;
    const shift: [number, number] = [next() * 2 - 1, next() * 2 - 1];
    return variant(
      `mirror, turned ${rotate}°, cropped ${Math.round(crop * 100)}%, ${brightness > 1 ? 'brighter' : 'darker'}`,
      'combined',
      i,
      {
        mirror: true,
        rotate,
        scale,
        dx: shift[0] * slack,
        dy: shift[1] * slack,
        brightness,
        crop,
        shift,
      },
    );
  });
}

interface Person {
  id: string;
  /** The group photo it comes from; faces of one photo are different people. */
  photo: string;
  file: string;
  face: Box;
  others: Box[];
  /**
   * A photo of this person alone, as taken (a fixture): the combined photos are edits of the whole
   * photo, head, shoulders and clothes, the way a phone's editor mirrors, straightens and crops it.
   */
  wholePhoto: boolean;
}

/**
 * A combined photo made from a whole photo: mirrored, turned (the part inside the turned photo
 * kept, no empty corners), cropped off-centre, brighter or darker, at a phone's width.
 */
async function editWholePhoto(person: Person, v: Variant): Promise<Buffer> {
  const turned = await sharp(person.file)
    .flop()
    .rotate(v.rotate, { background: '#777777' })
    .toBuffer({ resolveWithObject: true });
  const { width = 0, height = 0 } = await sharp(person.file).metadata();
  const inset = Math.ceil(Math.max(width, height) * Math.abs(Math.sin((v.rotate * Math.PI) / 180)));
  const insideWidth = turned.info.width - 2 * inset;
  const insideHeight = turned.info.height - 2 * inset;
  const keptWidth = Math.round(insideWidth * (1 - v.crop));
  const keptHeight = Math.round(insideHeight * (1 - v.crop));
  const kept = await sharp(turned.data)
    .extract({
      left: inset + Math.round(((insideWidth - keptWidth) / 2) * (1 + v.shift[0])),
      top: inset + Math.round(((insideHeight - keptHeight) / 2) * (1 + v.shift[1])),
      width: keptWidth,
      height: keptHeight,
    })
    .modulate({ brightness: v.brightness })
    .resize({ width: v.phone.width })
    .toBuffer();
  return v.phone.exifRotated
    ? sharp(kept).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer()
    : sharp(kept).jpeg({ quality: 90 }).toBuffer();
}

/** One phone photo of a person, as the phone stores it. */
async function makePhoto(person: Person, v: Variant): Promise<Buffer> {
  if (person.wholePhoto && v.kind === 'combined') return editWholePhoto(person, v);
  const { width = 0, height = 0 } = await sharp(person.file).metadata();
  // Everyone else painted out, so the portrait holds one person.
  const masks = await Promise.all(
    person.others.map(async (o) => ({
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
  const source = masks.length ? await sharp(person.file).composite(masks).toBuffer() : person.file;
  const face = person.face;
  // A 3:4 frame, as a phone's portrait photo.
  const frameWidth = Math.round(face.height * v.scale * 0.75);
  const frameHeight = Math.round(face.height * v.scale);
  const cx = face.x + face.width / 2 + v.dx * face.width;
  const cy = face.y + face.height * 0.6 + v.dy * face.height;
  // A region half as big again, turned, then its centre cut out: no empty corners.
  const big = Math.round(frameHeight * 1.5);
  const left = Math.round(cx - big / 2);
  const top = Math.round(cy - big / 2);
  const inLeft = Math.max(0, left);
  const inTop = Math.max(0, top);
  let region = await sharp(source)
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
  if (v.rotate) region = await sharp(region).rotate(v.rotate).toBuffer();
  const turned = await sharp(region).metadata();
  let image = sharp(
    await sharp(region)
      .extract({
        left: Math.round(((turned.width ?? frameWidth) - frameWidth) / 2),
        top: Math.round(((turned.height ?? frameHeight) - frameHeight) / 2),
        width: frameWidth,
        height: frameHeight,
      })
      .toBuffer(),
  );
  if (v.mirror) image = image.flop();
  if (v.brightness !== 1) image = image.modulate({ brightness: v.brightness });
  const upright = await image.resize(v.phone.width, v.phone.height).toBuffer();
  // Sideways pixels and orientation 6 ("turn 90° clockwise to view"), as many phones store them.
  return v.phone.exifRotated
    ? sharp(upright).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer()
    : sharp(upright).jpeg({ quality: 90 }).toBuffer();
}

interface Sample {
  person: string;
  variant: string;
  kind: Variant['kind'];
  analysis: PhotoAnalysis;
  /** The main face found is not the person the photo is of (the frame's centre). */
  offSubject: boolean;
}

// --- Analysis (cached) --------------------------------------------------------------------------

const analyzer = await createPhotoAnalyzer();
const people: Person[] = [];
for (let n = 1; n <= 6; n += 1) {
  const file = path.join(demo, `sample${n}.jpg`);
  const { faces } = await analyzer.analyzePhoto(file);
  faces.forEach((face, i) =>
    people.push({
      id: `sample${n}-${i + 1}`,
      photo: `sample${n}`,
      file,
      face,
      others: faces.filter((_, j) => j !== i),
      wholePhoto: false,
    }),
  );
}
// The photo-check fixtures' portraits of one person alone: the astronaut, and two head-and-shoulders
// crops of samples 1 and 3 (the same people as two of the sample faces, so they are labelled
// different only from the astronaut).
const FIXTURES = ['astronaut', 'other-person', 'other-person-2'];
for (const id of FIXTURES) {
  const file = path.join(ROOT, `apps/worker/test/fixtures/${id}.jpg`);
  people.push({
    id,
    photo: id,
    file,
    face: (await analyzer.analyzePhoto(file)).faces[0]!,
    others: [],
    wholePhoto: true,
  });
}
// The fixtures, then the largest faces first: the sharpest portraits are analysed first.
const fixtureRank = (p: Person) => FIXTURES.indexOf(p.id) >>> 0;
people.sort((a, b) => fixtureRank(a) - fixtureRank(b) || b.face.height - a.face.height);
const PEOPLE_IN_THE_BENCH = people.length;
const variantsOf = new Map(
  people.map((person, i) => [person.id, [...EVERYDAY, ...combinedVariants(1000 + i)]]),
);

const ANALYZER_SOURCES = ['analyze-photo.ts', 'face-detector.ts'].map((file) =>
  path.join(ROOT, 'apps/worker/src/photo-checks', file),
);
const cacheKey = createHash('sha256')
  .update(JSON.stringify({ v: PHOTO_ANALYSIS_VERSION, people, variants: [...variantsOf] }))
  .update(makePhoto.toString() + editWholePhoto.toString())
  // The analyzer's own code: a changed detector or descriptor is analysed afresh.
  .update(ANALYZER_SOURCES.map((file) => readFileSync(file, 'utf8')).join('\n'))
  .digest('hex')
  .slice(0, 16);
const cacheDir = path.join(ROOT, '.local/bench/same-person');

interface Analysed {
  samples: Sample[];
  ms: { pipeline: number[]; analysis: number[] };
}

/**
 * Each person's photos are analysed once and kept in a file of their own. SAME_PERSON_SHARD=k/n
 * analyses every n-th person from the k-th only, and stops: n such processes share the analysis
 * between cores. SAME_PERSON_AVAILABLE=1 judges the people analysed so far and no others (the
 * result says how many).
 */
const shard = /^(\d+)\/(\d+)$/.exec(process.env.SAME_PERSON_SHARD ?? '');
const personFile = (id: string) => path.join(cacheDir, `${cacheKey}-${id}.json`);

async function analysePerson(person: Person, pipeline: PhotoProcessingService, work: string) {
  const samples: Sample[] = [];
  const ms = { pipeline: [] as number[], analysis: [] as number[] };
  for (const [i, v] of variantsOf.get(person.id)!.entries()) {
    const file = path.join(work, `${person.id}-${i}.jpg`);
    await writeFile(file, await makePhoto(person, v));
    let start = performance.now();
    const processed = await pipeline.process(file);
    ms.pipeline.push(performance.now() - start);
    try {
      start = performance.now();
      const measured = await analyzer.analyzePhoto(processed.files.optimized);
      ms.analysis.push(performance.now() - start);
      // As the photo-check job stores it: the size is the photo's as uploaded.
      const analysis = { ...measured, width: processed.width, height: processed.height };
      const main = measured.faces[0];
      // A fixture holds one person: whatever its largest box frames, the photo is of them.
      const offSubject =
        !person.wholePhoto &&
        !!main &&
        (Math.abs(main.x + main.width / 2 - measured.width / 2) > measured.width * 0.25 ||
          Math.abs(main.y + main.height / 2 - measured.height / 2) > measured.height * 0.3);
      samples.push({ person: person.id, variant: v.name, kind: v.kind, analysis, offSubject });
    } finally {
      await processed.cleanup();
      await rm(file, { force: true });
    }
  }
  await writeFile(personFile(person.id), JSON.stringify({ samples, ms }));
  console.log(`${person.id}: ${samples.length} photos analysed`);
}

async function analyseAll(): Promise<Analysed> {
  await mkdir(cacheDir, { recursive: true });
  const mine = shard
    ? people.filter((_, i) => i % Number(shard[2]) === Number(shard[1]))
    : process.env.SAME_PERSON_AVAILABLE
      ? []
      : people;
  const work = await mkdtemp(path.join(tmpdir(), 'bench-same-person-'));
  try {
    const pipeline = new PhotoProcessingService({ tmpDir: work });
    for (const person of mine) {
      if (!existsSync(personFile(person.id))) await analysePerson(person, pipeline, work);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (shard) process.exit(0);
  const analysed: Analysed = { samples: [], ms: { pipeline: [], analysis: [] } };
  for (const person of people) {
    if (!existsSync(personFile(person.id))) continue;
    const part = JSON.parse(readFileSync(personFile(person.id), 'utf8')) as Analysed;
    analysed.samples.push(...part.samples);
    analysed.ms.pipeline.push(...part.ms.pipeline);
    analysed.ms.analysis.push(...part.ms.analysis);
  }
  // Only the people analysed take part (all of them unless SAME_PERSON_AVAILABLE).
  const done = new Set(analysed.samples.map((s) => s.person));
  people.splice(0, people.length, ...people.filter((p) => done.has(p.id)));
  return analysed;
}

const { samples, ms } = await analyseAll();

// --- Judging ------------------------------------------------------------------------------------

const photoOf = new Map(people.map((p) => [p.id, p.photo]));
const different = (a: string, b: string) =>
  a !== b &&
  (photoOf.get(a) === photoOf.get(b) ||
    photoOf.get(a) === 'astronaut' ||
    photoOf.get(b) === 'astronaut');
const usable = samples.filter((s) => !s.offSubject && s.analysis.descriptor);
const own = (person: string, kind: Variant['kind']) =>
  usable.filter((s) => s.person === person && s.kind === kind);

/** The sessions of one person, as described at the top. */
function sessionsOf(person: string): { name: string; photos: Sample[] }[] {
  const everyday = own(person, 'everyday');
  const combined = own(person, 'combined');
  const sessions = [];
  for (let i = 0; i + 3 <= combined.length; i += 3) {
    sessions.push({
      name: `report ${i / 3 + 1}`,
      photos: [...everyday, ...combined.slice(i, i + 3)],
    });
  }
  sessions.push({ name: 'combined', photos: combined });
  sessions.push({
    name: 'half and half',
    photos: [...everyday.slice(0, 10), ...combined.slice(0, 10)],
  });
  return sessions;
}

/**
 * The two checks compared. "before": each photo judged by its largest face alone, as the check did
 * before any other face was described; the analyses with the other faces' descriptors left out are
 * exactly its input (the largest face is described as it was). "after": the product's check.
 */
type Judge = 'before' | 'after';
const largestFaceOnly = (a: PhotoAnalysis): PhotoAnalysis => ({
  ...a,
  otherFaceDescriptors: [],
  // Nor did it know whether the landmarks fit: every described face was compared.
  faces: a.faces.map(({ landmarkSpan: _, ...face }) => face),
});

/** The verdict of one photo in its set: false when flagged as someone else. */
function samePerson(set: PhotoAnalysis[], index: number, judge: Judge, maxDistance?: number) {
  const verdicts = checkPhotoSet(
    judge === 'before' ? set.map(largestFaceOnly) : set,
    maxDistance === undefined ? {} : { samePersonMaxDistance: maxDistance },
  );
  return verdicts[index]!.checks.find((c) => c.id === 'same_person')!;
}

function falseRejects(judge: Judge, maxDistance?: number) {
  const rejected: { person: string; session: string; photo: string; message: string }[] = [];
  let judged = 0;
  let notCompared = 0;
  let sessions = 0;
  let sessionsWithReject = 0;
  for (const person of people) {
    for (const session of sessionsOf(person.id)) {
      sessions += 1;
      const set = session.photos.map((s) => s.analysis);
      let any = false;
      set.forEach((_, i) => {
        const verdict = samePerson(set, i, judge, maxDistance);
        if (verdict.ok !== null) judged += 1;
        else notCompared += 1;
        if (verdict.ok === false) {
          any = true;
          rejected.push({
            person: person.id,
            session: session.name,
            photo: session.photos[i]!.variant,
            message: verdict.message,
          });
        }
      });
      if (any) sessionsWithReject += 1;
    }
  }
  return { sessions, sessionsWithReject, judged, notCompared, rejected };
}

function strangersLetIn(judge: Judge, maxDistance?: number) {
  const accepted = new Map<string, number>();
  let tried = 0;
  let notCompared = 0;
  for (const person of people) {
    const session = sessionsOf(person.id)[0]!.photos.map((s) => s.analysis);
    for (const stranger of usable.filter((s) => different(person.id, s.person))) {
      tried += 1;
      // Not flagged is let in: a stranger's photo the check does not judge gets no warning either.
      const verdict = samePerson(
        [...session, stranger.analysis],
        session.length,
        judge,
        maxDistance,
      );
      if (verdict.ok === null) notCompared += 1;
      if (verdict.ok !== false) {
        const key = `${stranger.person} as ${person.id}`;
        accepted.set(key, (accepted.get(key) ?? 0) + 1);
      }
    }
  }
  return {
    tried,
    notCompared,
    accepted: [...accepted.values()].reduce((a, b) => a + b, 0),
    who: accepted,
  };
}

/** Distances between one person's photos (everyday and combined) and to other people's. */
function distances() {
  const pairs = {
    everydayToEveryday: [] as number[],
    combinedToEveryday: [] as number[],
    different: [] as number[],
  };
  for (const person of people) {
    const everyday = own(person.id, 'everyday');
    const combined = own(person.id, 'combined');
    everyday.forEach((a, i) =>
      everyday
        .slice(i + 1)
        .forEach((b) =>
          pairs.everydayToEveryday.push(
            euclideanDistance(a.analysis.descriptor!, b.analysis.descriptor!),
          ),
        ),
    );
    for (const a of combined)
      for (const b of everyday)
        pairs.combinedToEveryday.push(
          euclideanDistance(a.analysis.descriptor!, b.analysis.descriptor!),
        );
    for (const a of everyday)
      for (const b of usable.filter((s) => s.kind === 'everyday' && different(person.id, s.person)))
        if (person.id < b.person)
          pairs.different.push(euclideanDistance(a.analysis.descriptor!, b.analysis.descriptor!));
  }
  for (const list of Object.values(pairs)) list.sort((x, y) => x - y);
  return pairs;
}

const mean = (ds: number[][]) =>
  ds[0]!.map((_, i) => ds.reduce((sum, d) => sum + d[i]!, 0) / ds.length);

/** Distances to the mean of a person's everyday photos: their own combined photos', and strangers'. */
function centreDistances() {
  const own: number[] = [];
  const stranger: number[] = [];
  for (const person of people) {
    const everyday = usable.filter((s) => s.person === person.id && s.kind === 'everyday');
    if (everyday.length < 2) continue;
    const centre = mean(everyday.map((s) => s.analysis.descriptor!));
    for (const s of usable.filter((s) => s.person === person.id && s.kind === 'combined'))
      own.push(euclideanDistance(s.analysis.descriptor!, centre));
    for (const s of usable.filter((s) => different(person.id, s.person)))
      stranger.push(euclideanDistance(s.analysis.descriptor!, centre));
  }
  return { own: own.sort((x, y) => x - y), stranger: stranger.sort((x, y) => x - y) };
}

const q = (values: number[], p: number) =>
  Number((values[Math.round(p * (values.length - 1))] ?? NaN).toFixed(3));

const SWEEP = [0.5, 0.55, 0.57, 0.6, 0.65];
/**
 * The check before this bench's fixes compared the largest face at 0.57; the product has since
 * moved to SAME_PERSON_MAX_DISTANCE. "before" stays the check as the report met it.
 */
const BEFORE_MAX_DISTANCE = 0.57;
function measure(judge: Judge, maxDistance: number) {
  const rejects = falseRejects(judge, maxDistance);
  const strangers = strangersLetIn(judge, maxDistance);
  return {
    sessions: rejects.sessions,
    sessions_with_a_false_reject: rejects.sessionsWithReject,
    photos_judged: rejects.judged,
    photos_not_compared: rejects.notCompared,
    false_rejects: rejects.rejected.length,
    false_rejects_combined: rejects.rejected.filter((r) =>
      usable.some((s) => s.person === r.person && s.variant === r.photo && s.kind === 'combined'),
    ).length,
    rejected: rejects.rejected,
    strangers_tried: strangers.tried,
    strangers_accepted: strangers.accepted,
    strangers_not_compared: strangers.notCompared,
    accepted: Object.fromEntries(strangers.who),
    sweep: SWEEP.map((t) => ({
      max_distance: t,
      false_rejects: falseRejects(judge, t).rejected.length,
      strangers_accepted: strangersLetIn(judge, t).accepted,
    })),
  };
}

const d = distances();
const c = centreDistances();
const before = measure('before', BEFORE_MAX_DISTANCE);
const after = measure('after', SAME_PERSON_MAX_DISTANCE);
const result = {
  machine: machine(),
  people: people.length,
  people_in_the_bench: PEOPLE_IN_THE_BENCH,
  photos_per_person: { everyday: EVERYDAY.length, combined: COMBINED_PER_FACE },
  photos: samples.length,
  photos_without_a_face: samples.filter((s) => !s.analysis.descriptor).length,
  photos_main_face_off_subject: samples.filter((s) => s.offSubject).length,
  photos_with_more_faces_described: samples.filter((s) => s.analysis.otherFaceDescriptors.length)
    .length,
  photos_landmarks_not_fitting: samples.filter(
    (s) => s.analysis.descriptor && !faceIsComparable(s.analysis.faces[0]),
  ).length,
  ms: {
    pipeline_median: Math.round(median(ms.pipeline)),
    analysis_median: Math.round(median(ms.analysis)),
  },
  distances: {
    everyday_to_everyday: {
      median: q(d.everydayToEveryday, 0.5),
      p99: q(d.everydayToEveryday, 0.99),
      max: q(d.everydayToEveryday, 1),
    },
    combined_to_everyday: {
      median: q(d.combinedToEveryday, 0.5),
      p99: q(d.combinedToEveryday, 0.99),
      max: q(d.combinedToEveryday, 1),
    },
    different_people: {
      min: q(d.different, 0),
      p1: q(d.different, 0.01),
      median: q(d.different, 0.5),
    },
    combined_to_own_centre: { median: q(c.own, 0.5), p99: q(c.own, 0.99), max: q(c.own, 1) },
    stranger_to_centre: {
      min: q(c.stranger, 0),
      p1: q(c.stranger, 0.01),
      median: q(c.stranger, 0.5),
    },
  },
  max_distance: SAME_PERSON_MAX_DISTANCE,
  before_max_distance: BEFORE_MAX_DISTANCE,
  before,
  after,
  target:
    'before: flags genuine combined photos (the report reproduced); after: flags none, and lets in no more strangers than before',
  reproduced: before.false_rejects > 0,
  met:
    before.false_rejects > 0 &&
    after.false_rejects === 0 &&
    after.strangers_accepted <= before.strangers_accepted,
};

const pct = (n: number, of: number) => `${n}/${of} (${((100 * n) / Math.max(1, of)).toFixed(1)}%)`;
const flagged = (rejected: typeof before.rejected) =>
  Object.entries(
    rejected.reduce<Record<string, number>>((acc, r) => {
      const key = `${r.person} "${r.message}"`;
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([k, n]) => `${k} x${n}`)
    .join('; ') || 'none';
const md = `# Same person: genuine photos flagged, strangers let in (phone-made photos, upload pipeline)

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; ${result.machine.date}.

${people.length} of the bench's ${PEOPLE_IN_THE_BENCH} people analysed${people.length < PEOPLE_IN_THE_BENCH ? ' (the run was judged on the people analysed so far: SAME_PERSON_AVAILABLE=1)' : ''}: the photo-check fixtures' portraits
first (the astronaut, and head-and-shoulders crops of samples 1 and 3: the repository ships no other
face; its browser tests' portraits and the templates' previews are made from the astronaut), then
the largest faces of face-api's 6 sample photos. Per person ${EVERYDAY.length} everyday photos (one change at a
time) and ${COMBINED_PER_FACE} combined ones (mirrored + turned 3-10° either way + cropped 5-15% off-centre + 20%
brighter or darker, all at once; for a fixture, edits of the whole photo, head, shoulders and
clothes, as a phone's editor makes them), each a phone JPEG (1200x1600, 1536x2048 or, one in four,
3024x4032 wide; half stored sideways with EXIF orientation 6), put through the upload pipeline
(PhotoProcessingService) and analysed on its 1024 px working copy, as the photo-check job does:
${samples.length} photos, ${result.photos_without_a_face} without a face found, ${result.photos_main_face_off_subject} whose main face is not the person (both left out), ${result.photos_with_more_faces_described} with more than one face described, ${result.photos_landmarks_not_fitting} whose main face's landmarks did not fit it (landmark span under ${MIN_LANDMARK_SPAN}).

Sessions per person: the user's report (17 everyday + 3 combined; each triple of combined photos in
turn), all 20 combined, 10 + 10. Strangers: each person's first report session plus one photo of a
different person (two faces of one group photo, or the astronaut and anyone), every such photo in
turn.

The check (${'`checkPhotoSet`'}): a photo must be within the same-person distance of at least half of the set's other photos.
Before: each photo is its largest face, at ${BEFORE_MAX_DISTANCE} (the check as the report met it). After (at ${SAME_PERSON_MAX_DISTANCE}): each photo is the one of its described faces (at most
3, largest first) that matches most of the set; on these photos the largest box is sometimes the
clothes under the face, whose descriptor matches nobody. And a face whose landmarks did not fit it
(their aligned frame under ${MIN_LANDMARK_SPAN} of the detector's box: collapsed onto one eye of a face
seen from above or in profile, the descriptor then of an eyelid) is not compared: a photo with no
other face is not judged ("not compared"), and is no reference for the others. A stranger's photo
not judged gets no warning, so it counts as let in.

| check | genuine photos flagged | of them combined | genuine not compared | sessions with a flagged photo | strangers let in | of them not compared |
| --- | --- | --- | --- | --- | --- | --- |
| before (largest face), ${BEFORE_MAX_DISTANCE} | **${pct(before.false_rejects, before.photos_judged + before.photos_not_compared)}** | ${before.false_rejects_combined} | ${before.photos_not_compared} | ${before.sessions_with_a_false_reject}/${before.sessions} | **${pct(before.strangers_accepted, before.strangers_tried)}** | ${before.strangers_not_compared} |
| after (the face that is the person, if its landmarks fit), ${SAME_PERSON_MAX_DISTANCE} | **${pct(after.false_rejects, after.photos_judged + after.photos_not_compared)}** | ${after.false_rejects_combined} | ${after.photos_not_compared} | ${after.sessions_with_a_false_reject}/${after.sessions} | **${pct(after.strangers_accepted, after.strangers_tried)}** | ${after.strangers_not_compared} |

Distances between largest faces (descriptor, euclidean): everyday to everyday of one person median ${result.distances.everyday_to_everyday.median}, p99 ${result.distances.everyday_to_everyday.p99}, max ${result.distances.everyday_to_everyday.max};
combined to everyday median ${result.distances.combined_to_everyday.median}, p99 ${result.distances.combined_to_everyday.p99}, max ${result.distances.combined_to_everyday.max};
different people min ${result.distances.different_people.min}, p1 ${result.distances.different_people.p1}, median ${result.distances.different_people.median}.
To the mean of a person's everyday photos: their combined photos median ${result.distances.combined_to_own_centre.median}, p99 ${result.distances.combined_to_own_centre.p99}, max ${result.distances.combined_to_own_centre.max};
strangers' photos min ${result.distances.stranger_to_centre.min}, p1 ${result.distances.stranger_to_centre.p1}, median ${result.distances.stranger_to_centre.median}.

Flagged before (person, message, times): ${flagged(before.rejected)}.
Flagged after: ${flagged(after.rejected)}.

Threshold sweep, genuine photos flagged / strangers let in, before: ${before.sweep.map((s) => `${s.max_distance}: ${s.false_rejects} / ${s.strangers_accepted}`).join('; ')}.
After: ${after.sweep.map((s) => `${s.max_distance}: ${s.false_rejects} / ${s.strangers_accepted}`).join('; ')}.

Per photo (median): upload pipeline ${result.ms.pipeline_median} ms, analysis ${result.ms.analysis_median} ms.

Reproduced (before flags genuine photos): ${result.reproduced ? 'yes' : 'NO'}. Fixed (after flags none, lets in no more strangers): ${result.met ? 'yes' : 'NO'}.
Regenerate with ${'`bash bench/run.sh same-person`'} (the analysis takes about 25 CPU-minutes; each person's is
kept in .local/bench/same-person, and SAME_PERSON_SHARD=k/n shares it between processes).
`;
writeResult('same-person', result, md);
console.log(md);
