import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Where cgroup v2 says how much CPU time this container may use. */
export const CGROUP_CPU_MAX = '/sys/fs/cgroup/cpu.max';

/**
 * The CPUs this process may keep busy: the cgroup v2 CPU quota (`cpu.max`: "<quota> <period>",
 * or "max <period>" when unlimited) in whole CPUs, at least one; without a quota, the CPUs the
 * process may run on. A container limited to 2 CPUs on a 64-core host gets 2, where `os.cpus()`
 * would say 64 and oversubscribe it.
 */
export function availableCpus(cpuMaxPath: string = CGROUP_CPU_MAX): number {
  const cores = availableParallelism();
  let line: string;
  try {
    line = readFileSync(cpuMaxPath, 'utf8').trim();
  } catch {
    return cores; // no cgroup v2 CPU controller here
  }
  const [quota, period] = line.split(/\s+/);
  if (quota === 'max') return cores;
  const cpus = Math.floor(Number(quota) / Number(period));
  if (!Number.isFinite(cpus)) return cores;
  return Math.min(cores, Math.max(1, cpus));
}
