import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  InvalidStorageKeyError,
  ObjectNotFoundError,
  type LocalFile,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

const isErrno = (error: unknown, ...codes: string[]): boolean =>
  error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Objects as files under one root directory, `key` = relative path. Writes go to `<root>/.tmp`
 * first and are renamed into place, so a reader never sees half a file and a failed write leaves
 * nothing behind. (No valid key starts with a dot, so `.tmp` can never clash with an object.)
 */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  /** The file that holds `key`; throws unless it lies strictly inside the root. */
  pathOf(key: string): string {
    assertValidKey(key);
    const full = path.resolve(this.root, ...key.split('/'));
    // Belt and braces: assertValidKey already rules out every way out of the root.
    if (!full.startsWith(this.root + path.sep)) {
      throw new InvalidStorageKeyError(key, 'it points outside the storage root');
    }
    return full;
  }

  async putFile(key: string, filePath: string, _options?: PutOptions): Promise<StoredObject> {
    const target = this.pathOf(key);
    return this.writeAtomically(key, target, (tmp) => copyFile(filePath, tmp));
  }

  async putStream(key: string, stream: Readable, _options?: PutOptions): Promise<StoredObject> {
    const target = this.pathOf(key);
    return this.writeAtomically(key, target, async (tmp) => {
      // Create the file before piping: a stream that fails at once must not leave the temp file
      // to appear after the cleanup below has run.
      const handle = await open(tmp, 'wx');
      await pipeline(stream, handle.createWriteStream());
    });
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) throw new ObjectNotFoundError(key);
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile()) throw new ObjectNotFoundError(key);
    } catch (error) {
      await handle.close();
      throw error;
    }
    // The stream owns the handle from here and closes it when it ends or is destroyed.
    return handle.createReadStream();
  }

  async exists(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    try {
      return (await stat(file)).isFile();
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) return;
    try {
      await unlink(file);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
  }

  async localFile(key: string): Promise<LocalFile> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) throw new ObjectNotFoundError(key);
    return { path: file, release: async () => {} };
  }

  async close(): Promise<void> {}

  private async writeAtomically(
    key: string,
    target: string,
    write: (tmp: string) => Promise<unknown>,
  ): Promise<StoredObject> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      await write(tmp);
      const { size } = await stat(tmp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
      return { key, size };
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
