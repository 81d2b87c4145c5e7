import { ENGINE_PROTOCOL_VERSION, type EngineCommand } from '@studioshot/contracts';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeEngineCommand,
  EngineFailure,
  EngineProcess,
  type EngineStartRequest,
} from '../src/bridge/engine-process.js';
import { FIXTURES, WORKER_ROOT } from './support/harness.js';
import { LogCapture } from './support/log-capture.js';

/**
 * The worker's side of the golden transcripts (packages/contracts/engine-transcripts/README.md):
 * the real bridge talks to a process playing the engine's lines; that player checks each line the
 * bridge writes byte for byte, and the run must end as the transcript does.
 */
const TRANSCRIPTS = path.resolve(WORKER_ROOT, '../../packages/contracts/engine-transcripts');
const PLAYER = path.join(WORKER_ROOT, 'test/support/transcript-engine.mjs');

interface Entry {
  from: 'worker' | 'engine';
  message: Record<string, unknown> & { type: string };
}

// The studio engine's conversations, and the flux engine's in their own folder.
const files = [
  ...(await readdir(TRANSCRIPTS)),
  ...(await readdir(path.join(TRANSCRIPTS, 'flux'))).map((f) => `flux/${f}`),
]
  .filter((f) => f.endsWith('.ndjson'))
  .sort();

async function readTranscript(file: string): Promise<Entry[]> {
  const text = await readFile(path.join(TRANSCRIPTS, file), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Entry);
}

/** A transcript's engine value as an expectation: its placeholders match what they stand for. */
function expected(value: unknown): unknown {
  if (value === '<string>') return expect.any(String);
  if (value === '<number>') return expect.any(Number);
  if (value === '<any>') return expect.anything();
  if (Array.isArray(value)) return value.map(expected);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expected(v)]));
  }
  return value;
}

const substitute = (value: unknown, out: string): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll('$FIXTURES', FIXTURES).replaceAll('$OUT', out));

describe('golden engine transcripts, worker side', () => {
  it('are there to replay', () => {
    expect(files).toContain('train-success.ndjson');
    expect(files).toContain('flux/train-resume.ndjson');
    expect(files).toContain('flux/generate.ndjson');
  });

  it.each(files)('%s', async (file) => {
    const entries = await readTranscript(file);
    const out = await mkdtemp(path.join(tmpdir(), 'transcript-out-'));
    const logs = new LogCapture();
    const ready = entries.find((e) => e.message.type === 'ready');
    // A session: a transcript may hold several jobs, one after another, in one process.
    const engine = new EngineProcess({
      command: {
        file: process.execPath,
        args: [PLAYER, path.join(TRANSCRIPTS, file), FIXTURES, out],
      },
      // The engine kind the transcript's engine says it is (studio, or flux in flux/).
      kind: String(ready!.message.engine),
      reusable: true,
      logger: logs.logger,
      readyTimeoutMs: 10_000,
      cancelGraceMs: 5000,
      termGraceMs: 1000,
    });
    try {
      expect(await engine.ready).toMatchObject({ ...ready!.message, version: expect.any(String) });

      const starts = entries.flatMap((e, index) =>
        e.from === 'worker' && e.message.type === 'start' ? [index] : [],
      );
      let cancelled = false;
      for (const [n, startAt] of starts.entries()) {
        const startMessage = substitute(entries[startAt]!.message, out) as EngineCommand &
          EngineStartRequest;
        if (startMessage.v !== ENGINE_PROTOCOL_VERSION) {
          // A line of another protocol version: the bridge never writes one.
          expect(() => encodeEngineCommand(startMessage)).toThrow();
          return;
        }
        // This job's lines: up to the next start.
        const segment = entries.slice(startAt, starts[n + 1] ?? entries.length);
        const jobLines = segment.filter(
          (e) => e.from === 'engine' && e.message.job_id === startMessage.job_id,
        );
        const events: string[] = [];
        const outcome = engine
          .run(
            {
              job_id: startMessage.job_id,
              task: startMessage.task,
              params: startMessage.params,
            } as EngineStartRequest,
            {
              onProgress: () => events.push('progress'),
              onArtifact: ({ kind }) => events.push(`artifact:${kind}`),
            },
          )
          .then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );

        const cancelAt = segment.findIndex(
          (e) => e.from === 'worker' && e.message.type === 'cancel',
        );
        if (cancelAt >= 0) {
          // Cancel once the bridge has seen every engine line of this job before the cancel.
          const before = segment
            .slice(0, cancelAt)
            .filter((e) => e.from === 'engine' && e.message.job_id === startMessage.job_id).length;
          await expect
            .poll(() => events.length, { timeout: 10_000 })
            .toBeGreaterThanOrEqual(before);
          void engine.cancel('transcript cancel');
          cancelled = true;
        }

        const last = jobLines.at(-1)!.message;
        const ended = await outcome;
        if (last.type === 'result') {
          const artifacts = jobLines.filter((e) => e.message.type === 'artifact');
          expect(ended).toEqual({
            result: {
              summary: expected(last.summary),
              artifacts: artifacts.map((e) => ({
                path: path.join(startMessage.params.output_dir, `replayed-${e.message.kind}`),
                kind: e.message.kind,
                meta: expected(e.message.meta),
              })),
            },
          });
        } else {
          expect(last.type).toBe('error');
          const error = (ended as { error: EngineFailure }).error;
          expect(error).toBeInstanceOf(EngineFailure);
          if (cancelAt >= 0) {
            expect(error).toMatchObject({
              kind: 'cancelled',
              details: { cancelReason: 'transcript cancel' },
            });
          } else {
            expect(error).toMatchObject({
              kind: 'failed',
              retryable: last.retryable,
              details: { code: last.code },
            });
          }
        }
      }
      // The player found every line as written, and the bridge accepted every engine line.
      const playerErrors = () => logs.filter((r) => r.engineOutput === 'stderr').map((r) => r.msg);
      expect(logs.find((r) => r.msg === 'engine protocol violation')).toBeUndefined();
      // The conversation is over: the pipe closes and the player, like the engine, exits 0.
      if (!cancelled) expect(await engine.stop()).toEqual({ code: 0, signal: null });
      else expect(await engine.exited).toEqual({ code: 0, signal: null });
      expect(playerErrors()).toEqual([]);
    } finally {
      await engine.stop();
      await rm(out, { recursive: true, force: true });
    }
  });
});
