import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * A task stages its inputs (photos, a model) and the engine's output in a directory of its own,
 * named after the worker process, so that what a killed worker left behind can be told from what
 * a live one is using, and swept when the next worker starts.
 */
const PREFIX = 'studioshot-task-';
/** Workspaces of every version: trainings used this name before generation came. */
const WORKSPACE_NAME = /^studioshot-(?:task|training)-(\d+)-/;

export function createTaskWorkspace(tmpDir: string): Promise<string> {
  return mkdtemp(path.join(tmpDir, `${PREFIX}${process.pid}-`));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the workspaces of workers that are no longer running; answers how many. */
export async function sweepOrphanedWorkspaces(tmpDir: string, logger: Logger): Promise<number> {
  const entries = await readdir(tmpDir, { withFileTypes: true }).catch(() => []);
  let swept = 0;
  for (const entry of entries) {
    const pid = Number(WORKSPACE_NAME.exec(entry.name)?.[1]);
    if (!entry.isDirectory() || !pid || pid === process.pid || processAlive(pid)) continue;
    await rm(path.join(tmpDir, entry.name), { recursive: true, force: true });
    swept += 1;
  }
  if (swept) logger.info({ swept, tmpDir }, 'removed workspaces left by stopped workers');
  return swept;
}
