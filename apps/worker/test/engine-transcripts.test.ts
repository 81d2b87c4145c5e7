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
} from '../src/engine/engine-process.js';
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

const files = (await readdir(TRANSCRIPTS)).filter((f) => f.endsWith('.ndjson')).sort();

async function readTranscript(file: string): Promise<Entry[]> {
  const text = await readFile(path.join(TRANSCRIPTS, file), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Entry);
}

const substitute = (value: unknown, out: string): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll('$FIXTURES', FIXTURES).replaceAll('$OUT', out));

describe('golden engine transcripts, worker side', () => {
  it('are there to replay', () => {
    expect(files).toContain('train-success.ndjson');
  });

  it.each(files)('%s', async (file) => {
    const entries = await readTranscript(file);
    const out = await mkdtemp(path.join(tmpdir(), 'transcript-out-'));
    const logs = new LogCapture();
    const engine = new EngineProcess({
      command: {
        file: process.execPath,
        args: [PLAYER, path.join(TRANSCRIPTS, file), FIXTURES, out],
      },
      logger: logs.logger,
      readyTimeoutMs: 10_000,
      cancelGraceMs: 5000,
      termGraceMs: 1000,
    });
    try {
      const ready = entries.find((e) => e.message.type === 'ready');
      expect(await engine.ready).toMatchObject({ ...ready!.message, version: expect.any(String) });

      const start = entries.find((e) => e.from === 'worker' && e.message.type === 'start');
      if (!start) {
        expect(await engine.stop()).toEqual({ code: 0, signal: null });
        return;
      }
      const startMessage = substitute(start.message, out) as EngineCommand & EngineStartRequest;
      if (startMessage.v !== ENGINE_PROTOCOL_VERSION) {
        // A line of another protocol version: the bridge never writes one.
        expect(() => encodeEngineCommand(startMessage)).toThrow();
        return;
      }
      const events: string[] = [];
      const run = engine.run(
        { job_id: startMessage.job_id, task: startMessage.task, params: startMessage.params },
        {
          onProgress: () => events.push('progress'),
          onArtifact: ({ kind }) => events.push(`artifact:${kind}`),
        },
      );
      const outcome = run.then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );

      const cancelAt = entries.findIndex((e) => e.from === 'worker' && e.message.type === 'cancel');
      if (cancelAt >= 0) {
        // Cancel once the bridge has seen every engine line before the cancel.
        const before = entries.slice(0, cancelAt).filter((e) => e.from === 'engine').length - 1;
        await expect.poll(() => events.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(before);
        void engine.cancel('transcript cancel');
      }

      const last = entries.at(-1)!.message;
      const ended = await outcome;
      // The player found every line as written, and the bridge accepted every engine line.
      const playerErrors = logs.filter((r) => r.engineOutput === 'stderr').map((r) => r.msg);
      expect(playerErrors).toEqual([]);
      expect(logs.find((r) => r.msg === 'engine protocol violation')).toBeUndefined();
      if (last.type === 'result') {
        expect(ended).toEqual({
          result: {
            summary: last.summary,
            artifacts: entries
              .filter((e) => e.message.type === 'artifact')
              .map((e) => ({
                path: path.join(out, `replayed-${e.message.kind}`),
                kind: e.message.kind,
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
      // The conversation is over: the pipe closes and the player, like the engine, exits 0.
      expect(await engine.exited).toEqual({ code: 0, signal: null });
    } finally {
      await engine.stop();
      await rm(out, { recursive: true, force: true });
    }
  });
});
