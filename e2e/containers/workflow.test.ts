import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './compose.js';

// The GitHub workflow runs `.ci/run` in a job container; every package it and the scripts install
// must exist under that name on the job container's system (Ubuntu, for one, has no `chromium`).

const exec = promisify(execFile);
const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');

/** The names after `apt-get install` / `apt_install` in a script, options and redirects left out. */
function installedPackages(script: string): string[] {
  const names: string[] = [];
  for (const match of script.matchAll(/(?:apt-get install|apt_install)\b([^\n|&;]*)/g)) {
    for (const word of match[1]!.trim().split(/\s+/)) {
      if (/^[a-z0-9][a-z0-9.+-]+$/.test(word) && !word.startsWith('-')) names.push(word);
      else if (!word.startsWith('-') && !word.startsWith('>') && word !== '"$@"' && word !== '')
        break;
    }
  }
  return names;
}

/** /etc/os-release as a map. */
async function osRelease(): Promise<Record<string, string>> {
  const text = await readFile('/etc/os-release', 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => {
        const [key, ...value] = line.split('=');
        return [key!, value.join('=').replace(/^"|"$/g, '')];
      }),
  );
}

describe('the CI workflow', () => {
  it('runs exactly .ci/run, in a Debian bookworm job container given the runner’s Docker socket', async () => {
    const workflow = await read('.github/workflows/ci.yml');
    const runs = [...workflow.matchAll(/^\s*- run: (.*)$/gm)].map((m) => m[1]);
    expect(runs.at(-1)).toBe('bash .ci/run');
    expect(workflow).toMatch(/container:\n\s+image: debian:bookworm\n/);
    expect(workflow).toContain('/var/run/docker.sock:/var/run/docker.sock');
    expect(await read('.ci/run')).toMatch(/\nnpm test\n$/);
  });

  it('installs only packages that exist under those names on the job container’s system', async () => {
    const workflow = await read('.github/workflows/ci.yml');
    const scripts = await Promise.all(['scripts/lib.sh', 'scripts/test.sh'].map(read));
    const packages = [...new Set([workflow, ...scripts].flatMap(installedPackages))];
    // The ones the README's provisioning names, at least.
    expect(packages).toEqual(
      expect.arrayContaining([
        'chromium',
        'postgresql',
        'redis-server',
        'docker.io',
        'debootstrap',
      ]),
    );
    // Checked with this machine's apt: it must be the job container's system.
    const os = await osRelease();
    expect(`${os.ID}:${os.VERSION_CODENAME}`, 'run this check on Debian bookworm').toBe(
      'debian:bookworm',
    );
    // One section per package known to apt ("name:" then its candidate version).
    const { stdout } = await exec('apt-cache', ['policy', ...packages]);
    const candidates = new Map(
      [...stdout.matchAll(/^(\S+):\n\s+Installed: .*\n\s+Candidate: (.*)$/gm)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const missing = packages.filter((name) => [undefined, '(none)'].includes(candidates.get(name)));
    expect(missing).toEqual([]);
  });
});
