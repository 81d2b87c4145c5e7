import { LocalStorage, ObjectNotFoundError, type Storage } from '@studioshot/storage';
import type { Response } from 'express';
import { close, fstat, open, read } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { AppError } from '../errors.js';
import { MESSAGES } from '@studioshot/contracts';

/** An image a request's token was checked for: its stored key, the token's end, its name. */
export interface ImageToSend {
  key: string;
  /** When the request's image token stops working, in seconds since the epoch. */
  tokenExpiry: number;
  filename: string;
}

export type ImageSender = (image: ImageToSend, res: Response) => Promise<void>;

/** How long an S3 link to an image works, at most: enough to start the download, no more. */
export const IMAGE_LINK_SECONDS = 300;

/**
 * How an image leaves the API. Local storage: read whole (the images are a few hundred KB) and
 * sent with its length in one write, which costs fewer system calls than a stream. S3: a
 * presigned link to the bucket, so the bytes never pass through Node; the link lives no longer
 * than the token the request carried, names the download, and is not kept by any cache.
 */
export function imageSender(storage: Storage): ImageSender {
  if (storage instanceof LocalStorage) {
    const files = new WholeFiles();
    return async ({ key }, res) => {
      let body: Buffer;
      try {
        body = await files.read(storage.pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
        throw error;
      }
      res.writeHead(200, {
        'Content-Type': 'image/jpeg',
        'Content-Length': body.length,
        'Cache-Control': 'private, max-age=3600',
      });
      res.end(body);
    };
  }
  return async ({ key, tokenExpiry, filename }, res) => {
    const tokenLeft = Math.floor(tokenExpiry - Date.now() / 1000);
    if (tokenLeft < 1) throw new AppError('forbidden', MESSAGES.imageLinkExpired);
    const url = await storage.downloadUrl(key, {
      expiresInSeconds: Math.min(IMAGE_LINK_SECONDS, tokenLeft),
      filename,
      contentType: 'image/jpeg',
    });
    if (!url) throw new Error(`the ${storage.driver} storage gave no link for ${key}`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.redirect(302, url);
  };
}

const openFile = promisify(open);
const statFile = promisify(fstat);
const readInto = promisify(read);
const closeFile = promisify(close);

/**
 * Reads files whole in one read each: a stored image is written once under its key and never
 * changes, so its size is learned on the first read and the next ones need no stat. A read that
 * does not find exactly that size (the file was replaced) reads the file afresh.
 */
class WholeFiles {
  private readonly sizes = new Map<string, number>();

  constructor(private readonly maxKnown = 100_000) {}

  async read(file: string): Promise<Buffer> {
    const fd = await openFile(file, 'r');
    try {
      const known = this.sizes.get(file);
      const size = known ?? (await statFile(fd)).size;
      // One byte more than expected: finding it means the file grew.
      const buffer = Buffer.allocUnsafe(size + 1);
      const { bytesRead } = await readInto(fd, buffer, 0, size + 1, 0);
      if (bytesRead === size) {
        if (known === undefined) this.remember(file, size);
        return buffer.subarray(0, size);
      }
    } finally {
      await closeFile(fd);
    }
    this.sizes.delete(file);
    return readFile(file);
  }

  private remember(file: string, size: number): void {
    if (this.sizes.size >= this.maxKnown) this.sizes.delete(this.sizes.keys().next().value!);
    this.sizes.set(file, size);
  }
}
