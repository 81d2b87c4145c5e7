import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { availableCpus } from './cpu-quota.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cpu-max-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cpuMax(content: string): string {
  const file = path.join(dir, `cpu.max-${Math.random()}`);
  writeFileSync(file, content);
  return file;
}

describe('availableCpus', () => {
  it('reads the cgroup quota in whole CPUs, at least one, at most the CPUs there are', () => {
    const cores = availableParallelism();
    expect(availableCpus(cpuMax('100000 100000\n'))).toBe(1);
    expect(availableCpus(cpuMax('50000 100000\n'))).toBe(1);
    expect(availableCpus(cpuMax('150000 100000\n'))).toBe(1);
    expect(availableCpus(cpuMax(`${cores * 100000} 100000\n`))).toBe(cores);
    expect(availableCpus(cpuMax(`${(cores + 8) * 100000} 100000\n`))).toBe(cores);
  });

  it('without a quota, or without the file, uses the CPUs the process may run on', () => {
    expect(availableCpus(cpuMax('max 100000\n'))).toBe(availableParallelism());
    expect(availableCpus(path.join(dir, 'missing'))).toBe(availableParallelism());
  });
});
