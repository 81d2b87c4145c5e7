// The server-side photo pipeline (apps/api/src/services/photo-processing.ts) on camera-sized input:
// 20 JPEGs of 4000 x 3000, about 8 MB each (gradient + sensor-like noise, half of them rotated by
// EXIF and carrying GPS, as phones write them), and a 50,000 x 50,000 PNG decompression bomb.
// Targets: median < 0.4 s per photo and peak RSS < 350 MB on 2 cores; the bomb refused in < 100 ms
// with no memory spike.
//
// Each measurement runs in a fresh child process, so its peak RSS (VmHWM) is its own: the
// orchestrating process, which generates the inputs, never skews it.
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PhotoProcessingService } from '../apps/api/src/services/photo-processing.js';
import { GPS_EXIF, makeCameraPhoto, makePixelBombPng } from '../apps/api/test/fixtures/images.js';
import { machine, median, ROOT, writeResult } from './common.js';

const PHOTOS = 20;
const BOMB_RUNS = 5;
// Generated once and reused; the folder name changes with the generator's settings.
const PHOTO_SETTINGS = { width: 4000, height: 3000, quality: 92, noiseSigma: 52 };
const INPUT_DIR = path.join(
  ROOT,
  '.local/bench/photo-processing',
  Object.values(PHOTO_SETTINGS).join('-'),
);
const TARGETS = { median_s_max: 0.4, peak_rss_mb_max: 350, bomb_ms_max: 100 };

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Peak resident set size of this process so far (Linux), in bytes. */
function vmHwm(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples process.memoryUsage().rss every few ms while work runs in libvips' threads. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

async function photoFiles(): Promise<string[]> {
  return (await readdir(INPUT_DIR))
    .filter((f) => /^photo-\d+\.jpg$/.test(f))
    .sort()
    .map((f) => path.join(INPUT_DIR, f));
}

async function prepareInputs(): Promise<{ photos: string[]; bomb: string }> {
  await mkdir(INPUT_DIR, { recursive: true });
  const bomb = path.join(INPUT_DIR, 'bomb.png');
  if (!existsSync(bomb)) await makePixelBombPng(bomb);
  const missing = Array.from({ length: PHOTOS }, (_, i) => i).filter(
    (i) => !existsSync(path.join(INPUT_DIR, `photo-${String(i).padStart(2, '0')}.jpg`)),
  );
  if (missing.length) console.log(`generating ${missing.length} camera-sized photos...`);
  // Two at a time: the machine has two cores.
  for (let i = 0; i < missing.length; i += 2) {
    await Promise.all(
      missing.slice(i, i + 2).map((n) =>
        makeCameraPhoto(path.join(INPUT_DIR, `photo-${String(n).padStart(2, '0')}.jpg`), {
          ...PHOTO_SETTINGS,
          ...(n % 2 ? { orientation: 6, exif: GPS_EXIF } : {}),
        }),
      ),
    );
  }
  return { photos: await photoFiles(), bomb };
}

interface BatchResult {
  seconds: number[];
  wall_s: number;
  peak_rss_sampled: number;
  vm_hwm: number | null;
  rss_before: number;
}

/** Child: every photo through the pipeline, `concurrent` at a time. */
async function batch(concurrent: number): Promise<BatchResult> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-photo-'));
  const service = new PhotoProcessingService({ tmpDir: work, maxConcurrent: concurrent });
  const photos = await photoFiles();
  const rssBefore = process.memoryUsage.rss();
  const sampler = rssSampler();
  const seconds: number[] = [];
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < photos.length) {
      const input = photos[next++]!;
      const t = performance.now();
      const photo = await service.process(input);
      seconds.push((performance.now() - t) / 1000);
      await photo.cleanup();
    }
  };
  await Promise.all(Array.from({ length: concurrent }, lane));
  const wall = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  await rm(work, { recursive: true, force: true });
  return {
    seconds,
    wall_s: wall,
    peak_rss_sampled: peak,
    vm_hwm: vmHwm(),
    rss_before: rssBefore,
  };
}

interface BombResult {
  ms: number[];
  detail: string;
  rss_before: number;
  rss_after: number;
  hwm_before: number | null;
  hwm_after: number | null;
}

/** Child: the bomb, after one ordinary photo has loaded every library. */
async function bomb(file: string): Promise<BombResult> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-bomb-'));
  const service = new PhotoProcessingService({ tmpDir: work });
  const warm = await service.process((await photoFiles())[0]!);
  await warm.cleanup();
  await service.process(file).catch(() => undefined);
  const rssBefore = process.memoryUsage.rss();
  const hwmBefore = vmHwm();
  const ms: number[] = [];
  let detail = '';
  for (let i = 0; i < BOMB_RUNS; i += 1) {
    const t = performance.now();
    try {
      await service.process(file);
      throw new Error('the pixel bomb was accepted');
    } catch (error) {
      ms.push(performance.now() - t);
      detail = (error as Error).message;
    }
  }
  await rm(work, { recursive: true, force: true });
  return {
    ms,
    detail,
    rss_before: rssBefore,
    rss_after: process.memoryUsage.rss(),
    hwm_before: hwmBefore,
    hwm_after: vmHwm(),
  };
}

function inChild<T>(...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), args, { stdio: 'inherit' });
    let result: T | undefined;
    child.on('message', (message) => (result = message as T));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && result !== undefined
        ? resolve(result)
        : reject(new Error(`${args.join(' ')}: child exited with ${code}`)),
    );
  });
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'batch') {
  process.send!(await batch(Number(arg)));
} else if (mode === 'bomb') {
  process.send!(await bomb(arg!));
} else {
  const { photos, bomb: bombFile } = await prepareInputs();
  const sizes = await Promise.all(photos.map(async (p) => (await stat(p)).size));
  const sequential = await inChild<BatchResult>('batch', '1');
  const parallel = await inChild<BatchResult>('batch', '2');
  const refusal = await inChild<BombResult>('bomb', bombFile);

  const peak = (r: BatchResult) => Math.max(r.peak_rss_sampled, r.vm_hwm ?? 0);
  const medianS = median(sequential.seconds);
  const bombMs = median(refusal.ms);
  const bombHwmDelta =
    refusal.hwm_after !== null && refusal.hwm_before !== null
      ? refusal.hwm_after - refusal.hwm_before
      : null;
  const result = {
    machine: machine(),
    input: {
      photos: photos.length,
      dimensions: `${PHOTO_SETTINGS.width}x${PHOTO_SETTINGS.height} (half EXIF-rotated, with GPS)`,
      median_mb: mb(median(sizes)),
      min_mb: mb(Math.min(...sizes)),
      max_mb: mb(Math.max(...sizes)),
      bomb: {
        dimensions: '50000x50000 1-bit PNG',
        kb: Math.round((await stat(bombFile)).size / 1024),
      },
    },
    sequential: {
      median_s: Number(medianS.toFixed(3)),
      p90_s: Number(
        [...sequential.seconds].sort((a, b) => a - b)[Math.floor(PHOTOS * 0.9)]!.toFixed(3),
      ),
      per_photo_s: sequential.seconds.map((s) => Number(s.toFixed(3))),
      wall_s: Number(sequential.wall_s.toFixed(2)),
      rss_before_mb: mb(sequential.rss_before),
      peak_rss_sampled_mb: mb(sequential.peak_rss_sampled),
      vm_hwm_mb: sequential.vm_hwm === null ? null : mb(sequential.vm_hwm),
    },
    two_at_a_time: {
      photos_per_s: Number((PHOTOS / parallel.wall_s).toFixed(2)),
      median_latency_s: Number(median(parallel.seconds).toFixed(3)),
      wall_s: Number(parallel.wall_s.toFixed(2)),
      peak_rss_sampled_mb: mb(parallel.peak_rss_sampled),
      vm_hwm_mb: parallel.vm_hwm === null ? null : mb(parallel.vm_hwm),
    },
    pixel_bomb: {
      median_ms: Number(bombMs.toFixed(2)),
      runs_ms: refusal.ms.map((m) => Number(m.toFixed(2))),
      rss_delta_mb: mb(refusal.rss_after - refusal.rss_before),
      vm_hwm_delta_mb: bombHwmDelta === null ? null : mb(bombHwmDelta),
      detail: refusal.detail,
    },
    targets: TARGETS,
    pass:
      medianS < TARGETS.median_s_max &&
      Math.max(peak(sequential), peak(parallel)) < TARGETS.peak_rss_mb_max * 2 ** 20 &&
      bombMs < TARGETS.bomb_ms_max,
  };
  const m = result.machine;
  const md = `# Photo processing

Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, Node ${m.node}; ${m.date}.
Input: ${PHOTOS} JPEGs, ${result.input.dimensions}, ${result.input.median_mb} MB median (${result.input.min_mb}-${result.input.max_mb} MB).
Each photo: magic bytes, header check, SHA-256, EXIF rotate, strip metadata, fit in 1024 px, JPEG q85, 256 px thumbnail, and the original re-encoded at full size (upright, no metadata, JPEG q95) alongside.
Every measurement in a fresh child process; peak RSS = max(sampled \`process.memoryUsage().rss\`, \`VmHWM\`).

| measure | result | target |
| --- | --- | --- |
| median seconds per photo, one at a time | **${result.sequential.median_s}** (p90 ${result.sequential.p90_s}) | < ${TARGETS.median_s_max} |
| peak RSS, one at a time, MB | **${Math.max(result.sequential.peak_rss_sampled_mb, result.sequential.vm_hwm_mb ?? 0)}** (sampled ${result.sequential.peak_rss_sampled_mb}, VmHWM ${result.sequential.vm_hwm_mb}; ${result.sequential.rss_before_mb} before) | < ${TARGETS.peak_rss_mb_max} |
| two at a time (maxConcurrent 2): photos/s, median latency | ${result.two_at_a_time.photos_per_s}/s, ${result.two_at_a_time.median_latency_s} s | |
| peak RSS, two at a time, MB | **${Math.max(result.two_at_a_time.peak_rss_sampled_mb, result.two_at_a_time.vm_hwm_mb ?? 0)}** (sampled ${result.two_at_a_time.peak_rss_sampled_mb}, VmHWM ${result.two_at_a_time.vm_hwm_mb}) | < ${TARGETS.peak_rss_mb_max} |
| pixel bomb (${result.input.bomb.dimensions}, ${result.input.bomb.kb} KB) refused, median ms | **${result.pixel_bomb.median_ms}** (${result.pixel_bomb.runs_ms.join(', ')}) | < ${TARGETS.bomb_ms_max} |
| pixel bomb memory: RSS delta, VmHWM delta, MB | ${result.pixel_bomb.rss_delta_mb}, ${result.pixel_bomb.vm_hwm_delta_mb} | no spike |

Per photo, one at a time (s): ${result.sequential.per_photo_s.join(', ')}.
Bomb answer: "${result.pixel_bomb.detail}"

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh photo-processing\`.
`;
  writeResult('photo-processing', result, md);
  console.log(md);
}
