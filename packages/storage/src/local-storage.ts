import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  assertValidPrefix,
  InvalidStorageKeyError,
  ObjectNotFoundError,
  type DownloadUrlOptions,
  type ListedObject,
  type LocalFile,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

const isValidKey = (key: string): boolean => {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
};

const isErrno = (error: unknown, ...codes: string[]): boolean =>
  error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Objects as files under one root directory, `key` = relative path. Writes go to `<root>/.tmp`
 * first and are renamed into place, so a reader never sees half a file and a failed write leaves
 * nothing behind. (No valid key starts with a dot, so `.tmp` can never clash with an object.)
 */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly downloadOrigin = undefined;
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

  async copy(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    if (!(await this.exists(from))) throw new ObjectNotFoundError(from);
    try {
      await this.writeAtomically(to, target, (tmp) => copyFile(source, tmp));
    } catch (error) {
      if (isErrno(error, 'ENOENT') && !(await this.exists(from))) {
        throw new ObjectNotFoundError(from);
      }
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    const found: ListedObject[] = [];
    await this.walk(this.pathOf(prefix.slice(0, -1)), prefix, found);
    found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    yield* found;
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    const dir = this.pathOf(prefix.slice(0, -1));
    try {
      // `a/b/` names nothing when `a/b` is an object: that object must stay.
      if (!(await stat(dir)).isDirectory()) return 0;
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return 0;
      throw error;
    }
    const found: ListedObject[] = [];
    await this.walk(dir, prefix, found);
    // The whole directory goes, files that no key could name included.
    await rm(dir, { recursive: true, force: true });
    return found.length;
  }

  async downloadUrl(key: string, _options: DownloadUrlOptions): Promise<undefined> {
    assertValidKey(key);
    return undefined;
  }

  async localFile(key: string): Promise<LocalFile> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) throw new ObjectNotFoundError(key);
    return { path: file, release: async () => {} };
  }

  async close(): Promise<void> {}

  /** Every file under `dir` (the directory of `prefix`); a missing directory holds nothing. */
  private async walk(dir: string, prefix: string, found: ListedObject[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        await this.walk(full, `${key}/`, found);
      } else if (entry.isFile() && isValidKey(key)) {
        try {
          const info = await stat(full);
          found.push({ key, size: info.size, lastModified: info.mtime });
        } catch (error) {
          if (!isErrno(error, 'ENOENT')) throw error; // deleted while listing
        }
      }
    }
  }

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
