import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTaskWorkspace, sweepOrphanedWorkspaces } from './task-workspaces.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'workspaces-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

it("sweeps the workspaces of stopped workers and keeps live workers' and other files", async () => {
  const mine = await createTaskWorkspace(dir);
  const dead = path.join(dir, `studioshot-training-${await deadPid()}-abc123`);
  await mkdir(path.join(dead, 'photos'), { recursive: true });
  // PID 1 is always alive (and not ours to signal: EPERM still means alive).
  const live = path.join(dir, 'studioshot-training-1-def456');
  await mkdir(live);
  const unrelated = path.join(dir, 'something-else-99999999-x');
  await mkdir(unrelated);

  expect(await sweepOrphanedWorkspaces(dir, pino({ level: 'silent' }))).toBe(1);
  expect((await readdir(dir)).sort()).toEqual(
    [path.basename(mine), path.basename(live), path.basename(unrelated)].sort(),
  );
});
