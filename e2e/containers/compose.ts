import { execFile, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Docker and Compose for the container test, as scripts/lib.sh's ensure_docker provides them:
// STUDIOSHOT_DOCKER and STUDIOSHOT_COMPOSE name the commands, DOCKER_HOST the daemon.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OVERRIDE = 'infra/test/compose.override.yml';

/** Why the container test cannot run here, or undefined when it can. */
export function unavailable(): string | undefined {
  if (process.env.STUDIOSHOT_CONTAINER_TEST_SKIP) return process.env.STUDIOSHOT_CONTAINER_TEST_SKIP;
  if (!process.env.STUDIOSHOT_DOCKER || !process.env.STUDIOSHOT_COMPOSE)
    return 'no Docker: run it through `npm test`, whose scripts/lib.sh (ensure_docker) provides Docker and Compose';
  return undefined;
}

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit throws with its output. */
export function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: ROOT,
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${path.basename(file)} ${args.join(' ')} failed (${error.message})\n${stdout}\n${stderr}`,
            ),
          );
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** Runs a command with its output passed through (long builds show their progress). */
export function runShown(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${file} ${args.join(' ')} exited ${code ?? signal}`)),
    );
  });
}

export const docker = (...args: string[]) => run(process.env.STUDIOSHOT_DOCKER!, args);

/** One compose project: the shipped file plus the test's override, with an operator's env file. */
export class Project {
  constructor(
    readonly name: string,
    readonly envFile: string,
  ) {}

  args(files: 'shipped' | 'overridden' = 'overridden'): string[] {
    const fileArgs = [
      '-f',
      'docker-compose.yml',
      ...(files === 'overridden' ? ['-f', OVERRIDE] : []),
    ];
    return ['-p', this.name, '--project-directory', ROOT, ...fileArgs, '--env-file', this.envFile];
  }

  /** The compose command line for this project, as scripts/backup.sh takes it (COMPOSE). */
  commandLine(): string {
    return [process.env.STUDIOSHOT_COMPOSE!, ...this.args()].join(' ');
  }

  compose(...args: string[]): Promise<Run> {
    return run(process.env.STUDIOSHOT_COMPOSE!, [...this.args(), ...args]);
  }

  composeShown(...args: string[]): Promise<void> {
    return runShown(process.env.STUDIOSHOT_COMPOSE!, [...this.args(), ...args]);
  }

  /** The compose file as Compose reads it (every profile), as JSON. */
  async config(files: 'shipped' | 'overridden'): Promise<unknown> {
    const { stdout } = await run(process.env.STUDIOSHOT_COMPOSE!, [
      ...this.args(files),
      '--profile',
      'gpu',
      'config',
      '--format',
      'json',
    ]);
    return JSON.parse(stdout) as unknown;
  }

  /** One SQL query's rows (tab-separated fields), run by psql in the postgres container. */
  async sql(query: string): Promise<string[][]> {
    const { stdout } = await this.compose(
      'exec',
      '-T',
      'postgres',
      'psql',
      '-U',
      'studioshot',
      '-d',
      'studioshot',
      '-v',
      'ON_ERROR_STOP=1',
      '-tAF',
      '\t',
      '-c',
      query,
    );
    return stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t'));
  }

  /** The one row a query answers; fails when there is none. */
  async row(query: string): Promise<string[]> {
    const [first] = await this.sql(query);
    if (!first) throw new Error(`no row: ${query}`);
    return first;
  }

  /**
   * Where this test reaches a service's port: the 127.0.0.1 address Docker published for it; or,
   * in a CI job container using the runner's Docker (STUDIOSHOT_JOIN_COMPOSE_NETWORK), whose
   * 127.0.0.1 is not the runner's, the service's address on the stack's network, which this
   * container then joins.
   */
  async published(service: string, port: number): Promise<string> {
    if (process.env.STUDIOSHOT_JOIN_COMPOSE_NETWORK) {
      await docker('network', 'connect', this.network, hostname()).catch((error: Error) => {
        if (!error.message.includes('already exists')) throw error;
      });
      const id = (await this.compose('ps', '--quiet', service)).stdout.trim();
      const { stdout } = await docker(
        'inspect',
        '--format',
        `{{(index .NetworkSettings.Networks "${this.network}").IPAddress}}`,
        id,
      );
      return `http://${stdout.trim()}:${port}`;
    }
    const { stdout } = await this.compose('port', service, String(port));
    const address = stdout.trim();
    if (!address.startsWith('127.0.0.1:'))
      throw new Error(`${service}:${port} is published on ${address}`);
    return `http://${address}`;
  }

  get network(): string {
    return `${this.name}_default`;
  }

  /** Removes the stack's containers, networks and volumes (of every profile). */
  async down(): Promise<void> {
    if (process.env.STUDIOSHOT_JOIN_COMPOSE_NETWORK)
      await docker('network', 'disconnect', '--force', this.network, hostname()).catch(() => {});
    await this.compose(
      '--profile',
      'gpu',
      'down',
      '--volumes',
      '--remove-orphans',
      '--timeout',
      '5',
    );
  }

  async logs(): Promise<string> {
    return (await this.compose('logs', '--no-color', '--tail', '200')).stdout;
  }
}

/** Every leaf path where `a` and `b` differ, as dotted names (a.b.c). */
export function differingPaths(a: unknown, b: unknown, at = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null;
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) => differingPaths(a[key], b[key], at ? `${at}.${key}` : key));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [at];
}
