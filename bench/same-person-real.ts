// The same-person check on real photos: one person's photos from different days, cameras, years and
// light, which no edit of one photo reproduces (bench/same-person.ts makes its people's photos from
// one portrait each). It answers what that bench cannot: do the check's genuine photos stay in when
// they are really different photos, and where along the threshold does the first one fall out?
//
// The photos are not shipped: they are faces of people whose likeness we hold no licence for. Give
// a folder of photos and, in it, CSV files of labelled pairs (`file_x,file_y,Yes|No`, a header
// first): SAME_PERSON_REAL_DIR=dir bash bench/run.sh same-person-real. The people are the groups the
// "Yes" pairs join; a group of 3 or more photos with a face is a person. Results went to
// results/same-person-real.md from the 62-photo test set of the deepface project
// (tests/unit/dataset, its master.csv and face-recognition-pivot.csv).
//
// Every photo goes through the upload pipeline (PhotoProcessingService) and the worker's analyzer,
// as a photo-check job does. Sessions: each person's photos alone (genuine photos flagged), and each
// person's photos plus one photo of another person, every such photo in turn (strangers let in).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PhotoProcessingService } from '../apps/api/src/services/photo-processing.js';
import {
  checkPhotoSet,
  createPhotoAnalyzer,
  euclideanDistance,
  SAME_PERSON_MAX_DISTANCE,
  type PhotoAnalysis,
} from '../apps/worker/src/photo-checks/index.js';
import { machine, writeResult } from './common.js';

const dir = process.env.SAME_PERSON_REAL_DIR;
if (!dir) {
  console.error(
    'SAME_PERSON_REAL_DIR is not set: give a folder of photos with CSV files of labelled pairs (see the top of same-person-real.ts).',
  );
  process.exit(2);
}

/** The people: photos joined by "Yes" pairs (union-find over every CSV in the folder). */
function peopleFromPairs(folder: string): string[][] {
  const parent = new Map<string, string>();
  const root = (file: string): string => {
    let at = file;
    while (parent.get(at) !== at) at = parent.get(at)!;
    return at;
  };
  for (const csv of readdirSync(folder).filter((name) => name.endsWith('.csv'))) {
    const rows = readFileSync(path.join(folder, csv), 'utf8').trim().split(/\r?\n/).slice(1);
    for (const row of rows) {
      const [x, y, decision] = row.split(',').map((cell) => path.basename(cell.trim()));
      if (!x || !y || !decision) continue;
      for (const file of [x, y]) if (!parent.has(file)) parent.set(file, file);
      if (decision === 'Yes') parent.set(root(x), root(y));
    }
  }
  const groups = new Map<string, string[]>();
  for (const file of parent.keys())
    groups.set(root(file), [...(groups.get(root(file)) ?? []), file]);
  return [...groups.values()].map((files) => files.sort());
}

const photosByPerson = peopleFromPairs(dir);
const analyzer = await createPhotoAnalyzer();
const work = await mkdtemp(path.join(tmpdir(), 'bench-same-person-real-'));
const analyses = new Map<string, PhotoAnalysis>();
try {
  const pipeline = new PhotoProcessingService({ tmpDir: work });
  for (const file of photosByPerson.flat()) {
    const processed = await pipeline.process(path.join(dir, file));
    try {
      const measured = await analyzer.analyzePhoto(processed.files.optimized);
      analyses.set(file, { ...measured, width: processed.width, height: processed.height });
    } finally {
      await processed.cleanup();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

const people = photosByPerson
  .map((files) => files.filter((file) => analyses.get(file)?.descriptor))
  .filter((files) => files.length >= 3);
const photoCount = people.reduce((sum, files) => sum + files.length, 0);
const setOf = (files: string[]) => files.map((file) => analyses.get(file)!);
const samePerson = (set: PhotoAnalysis[], index: number, maxDistance: number) =>
  checkPhotoSet(set, { samePersonMaxDistance: maxDistance })[index]!.checks.find(
    (check) => check.id === 'same_person',
  )!;

function judge(maxDistance: number) {
  const flagged: string[] = [];
  for (const files of people) {
    const set = setOf(files);
    files.forEach((file, i) => {
      const verdict = samePerson(set, i, maxDistance);
      if (verdict.ok === false) flagged.push(`${file} "${verdict.message}"`);
    });
  }
  let tried = 0;
  let letIn = 0;
  for (const files of people) {
    for (const other of people) {
      if (other === files) continue;
      for (const stranger of other) {
        tried += 1;
        const verdict = samePerson(setOf([...files, stranger]), files.length, maxDistance);
        if (verdict.ok !== false) letIn += 1;
      }
    }
  }
  return { maxDistance, flagged, tried, letIn };
}

const SWEEP = [0.45, 0.5, 0.52, 0.55, 0.57, 0.6, 0.65];
const sweep = SWEEP.map(judge);
const product = judge(SAME_PERSON_MAX_DISTANCE);

const same: number[] = [];
const different: number[] = [];
const everyone = people.flatMap((files, person) => files.map((file) => ({ file, person })));
everyone.forEach((a, i) => {
  for (const b of everyone.slice(i + 1)) {
    const distance = euclideanDistance(
      analyses.get(a.file)!.descriptor!,
      analyses.get(b.file)!.descriptor!,
    );
    (a.person === b.person ? same : different).push(distance);
  }
});
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.round(q * (sorted.length - 1))]!;
};
const distances = {
  same: {
    pairs: same.length,
    median: quantile(same, 0.5),
    p90: quantile(same, 0.9),
    max: quantile(same, 1),
  },
  different: {
    pairs: different.length,
    min: quantile(different, 0),
    p1: quantile(different, 0.01),
    median: quantile(different, 0.5),
  },
};
const firstFlagAt = [...sweep].reverse().find((s) => s.flagged.length > 0)?.maxDistance ?? null;

const result = {
  machine: machine(),
  people: people.map((files) => files.length),
  photos: photoCount,
  threshold: SAME_PERSON_MAX_DISTANCE,
  product: {
    flagged: product.flagged,
    strangersLetIn: product.letIn,
    strangersTried: product.tried,
  },
  sweep: sweep.map((s) => ({
    maxDistance: s.maxDistance,
    genuineFlagged: s.flagged.length,
    strangersLetIn: s.letIn,
  })),
  distances,
};
const f3 = (n: number) => n.toFixed(3);
const md = `# Same person on real photos (one person's photos from different days)

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; ${result.machine.date}.

${people.length} people with 3 or more photos with a face (${result.people.join(', ')} photos; ${photoCount} in all), from the
labelled pairs of the folder given (see the top of \`bench/same-person-real.ts\`). Each photo went
through the upload pipeline and the worker's analyzer. Genuine: each person's photos as one set.
Strangers: each person's set plus one photo of another person, every such photo in turn.

**The product's check (same-person distance ${SAME_PERSON_MAX_DISTANCE}): ${product.flagged.length} of ${photoCount} genuine photos flagged, ${product.letIn} of ${product.tried} strangers let in.**

| same-person distance | genuine photos flagged | strangers let in |
| --- | --- | --- |
${sweep.map((s) => `| ${s.maxDistance}${s.maxDistance === SAME_PERSON_MAX_DISTANCE ? ' (the product)' : ''} | ${s.flagged.length}/${photoCount}${s.flagged.length ? `: ${s.flagged.join('; ')}` : ''} | ${s.letIn}/${s.tried} |`).join('\n')}

The highest swept distance at which a genuine photo is flagged: ${firstFlagAt ?? 'none'}.

Distances (descriptor, euclidean): one person's photos, ${distances.same.pairs} pairs: median ${f3(distances.same.median)},
p90 ${f3(distances.same.p90)}, max ${f3(distances.same.max)}; different people, ${distances.different.pairs} pairs: min ${f3(distances.different.min)},
p1 ${f3(distances.different.p1)}, median ${f3(distances.different.median)}.

Regenerate with \`SAME_PERSON_REAL_DIR=dir bash bench/run.sh same-person-real\`.
`;
writeResult('same-person-real', result, md);
console.log(md);
