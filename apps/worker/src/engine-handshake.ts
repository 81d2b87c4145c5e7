import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface EngineHello {
  v: number;
  type: 'ready';
  engine: string;
  version: string;
}

/**
 * Starts the Python engine with the protocol pipe on fd 3 and waits for its `ready` message.
 * The full bridge (start / progress / result / cancel) arrives with the training capability.
 */
export async function probeEngine(
  python: string,
  kind: string,
  timeoutMs = 15_000,
): Promise<EngineHello> {
  const child = spawn(python, ['-m', 'studioshot_engine', '--engine', kind], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const channel = child.stdio[3] as Readable;
  try {
    return await new Promise<EngineHello>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('engine did not report ready in time')),
        timeoutMs,
      );
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`engine exited with code ${code} before ready`)),
      );
      createInterface({ input: channel }).once('line', (line) => {
        clearTimeout(timer);
        const message = JSON.parse(line) as EngineHello;
        if (message.type !== 'ready') reject(new Error(`expected ready, got ${message.type}`));
        else resolve(message);
      });
    });
  } finally {
    child.kill('SIGTERM');
  }
}
