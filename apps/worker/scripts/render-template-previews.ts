/**
 * Renders the 400x450 preview of every template variant with the studio engine, from the
 * public-domain astronaut portrait (scikit-image's `astronaut`, the test fixtures' source), into
 * apps/web/public/templates/: `prof_N-v{index}.jpg` per variant and `prof_N.jpg` (its first
 * variant). The web app serves them as each template's `imageUrl`.
 *
 *   pnpm --filter @studioshot/worker exec tsx scripts/render-template-previews.ts
 *
 * It drives the engine exactly as the worker does (the fd-3 bridge): one training on the
 * astronaut photos, then one generation per variant on the same warm session. Same seed, same
 * pictures: re-running it changes no file unless a template or the engine changed.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEMPLATES } from '@studioshot/templates';
import { pino } from 'pino';
import sharp from 'sharp';
import { engineCommandLine, EngineProcess } from '../src/bridge/engine-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'test/fixtures');
const outDir = path.resolve(root, '../web/public/templates');
const PHOTOS = [
  'astronaut.jpg',
  'astronaut-mirror.jpg',
  'astronaut-warm.jpg',
  'astronaut-closer.jpg',
];
const RENDER_SIZE = 512;
const PREVIEW = { width: 400, height: 450 };
const SEED = 20261123;

const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
const engine = new EngineProcess({
  command: engineCommandLine(path.join(root, 'engine/.venv/bin/python'), 'studio'),
  kind: 'studio',
  reusable: true,
  logger,
  readyTimeoutMs: 60_000,
  cancelGraceMs: 5000,
  termGraceMs: 5000,
});
const work = await mkdtemp(path.join(tmpdir(), 'template-previews-'));
try {
  await engine.ready;
  await engine.run({
    job_id: 'previews-train',
    task: 'train',
    params: {
      photos: PHOTOS.map((file) => ({
        id: file,
        path: path.join(fixtures, file),
        original_path: path.join(fixtures, file),
        descriptor: null,
      })),
      output_dir: work,
      trigger_word: 'person',
      model_name: 'Template previews',
    },
  });
  await mkdir(outDir, { recursive: true });
  let rendered = 0;
  for (const template of TEMPLATES) {
    for (const variant of template.variants) {
      const outputDir = path.join(work, `${template.id}-v${variant.index}`);
      const result = await engine.run({
        job_id: `preview-${template.id}-v${variant.index}`,
        task: 'generate',
        params: {
          model_path: path.join(work, 'model.npz'),
          prompt: template.prompt,
          template: { id: template.id, variant: variant.index, studio: variant.studio },
          seed: SEED,
          count: 1,
          size: RENDER_SIZE,
          output_dir: outputDir,
        },
      });
      const image = result.artifacts.find((a) => a.kind === 'image');
      if (!image) throw new Error(`no image for ${template.id} variant ${variant.index}`);
      const names = [`${template.id}-v${variant.index}.jpg`];
      if (variant.index === 0) names.push(`${template.id}.jpg`);
      for (const name of names) {
        await sharp(image.path)
          .resize(PREVIEW.width, PREVIEW.height, { fit: 'cover', position: 'centre' })
          .jpeg({ quality: 82, mozjpeg: true })
          .toFile(path.join(outDir, name));
      }
      rendered += 1;
    }
  }
  console.log(
    `rendered ${rendered} template previews into ${path.relative(process.cwd(), outDir)}`,
  );
} finally {
  await engine.stop();
  await rm(work, { recursive: true, force: true });
}
