import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  GetObjectCommand,
  HeadObjectCommand,
  PutBucketCorsCommand,
  S3Client,
  S3ServiceException,
  type CORSRule,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  assertValidPrefix,
  ObjectNotFoundError,
  type DownloadUrlOptions,
  type ListedObject,
  type LocalFile,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, a local test server); AWS itself when unset. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` addressing instead of `https://bucket.endpoint/key`. */
  forcePathStyle?: boolean;
  /** Where `localFile` puts its temporary copies; the OS temp directory by default. */
  tmpDir?: string;
  /**
   * Keys per ListObjectsV2 page and per DeleteObjects batch: 1000 (the most S3 allows) unless
   * set lower (tests use a small page to exercise pagination).
   */
  pageSize?: number;
}

const MAX_PAGE_SIZE = 1000;

/** The origin of the bucket's object addresses, as the SDK builds them (and presigns them). */
function bucketOrigin(config: S3StorageConfig): string {
  if (!config.endpoint) return `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
  const endpoint = new URL(config.endpoint);
  return config.forcePathStyle
    ? endpoint.origin
    : `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
}

/** The bucket's CORS rule for downloads by pages on `origins`. */
export function downloadCorsRule(origins: string[]): CORSRule {
  return {
    AllowedOrigins: origins,
    AllowedMethods: ['GET', 'HEAD'],
    AllowedHeaders: ['*'],
    ExposeHeaders: ['Content-Disposition', 'Content-Length', 'Content-Type', 'ETag'],
    MaxAgeSeconds: 3600,
  };
}

// Multipart uploads buffer queueSize x partSize bytes: 2 x 5 MiB keeps a 50 MB upload's memory
// small next to the API's RSS budget.
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

/**
 * Objects in one S3 bucket, `key` = object key. Credentials come from the AWS SDK's default
 * chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, profiles, instance roles).
 * Puts stream through `@aws-sdk/lib-storage` (one PutObject, or a multipart upload that is
 * aborted if anything fails), so a failed put stores nothing.
 */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly bucket: string;
  readonly downloadOrigin: string;
  readonly client: S3Client;
  private readonly tmpDir: string;
  private readonly pageSize: number;

  constructor(config: S3StorageConfig, client?: S3Client) {
    this.bucket = config.bucket;
    this.downloadOrigin = bucketOrigin(config);
    this.tmpDir = config.tmpDir ?? tmpdir();
    this.pageSize = Math.min(
      Math.max(1, Math.floor(config.pageSize ?? MAX_PAGE_SIZE)),
      MAX_PAGE_SIZE,
    );
    this.client =
      client ??
      new S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle ?? false,
      });
  }

  async putFile(key: string, filePath: string, options: PutOptions = {}): Promise<StoredObject> {
    assertValidKey(key);
    const { size } = await stat(filePath);
    await this.upload(key, createReadStream(filePath), options, size);
    return { key, size };
  }

  async putStream(key: string, stream: Readable, options: PutOptions = {}): Promise<StoredObject> {
    assertValidKey(key);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // A source error destroys `counter`, which fails the upload (and aborts a multipart one).
    const piping = pipeline(stream, counter);
    const [, uploaded] = await Promise.allSettled([piping, this.upload(key, counter, options)]);
    if (uploaded.status === 'rejected') throw uploaded.reason;
    await piping;
    return { key, size };
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!(result.Body instanceof Readable)) throw new Error('S3 returned no body stream');
      return result.Body;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    try {
      // Server-side: the bytes never pass through us; content type and metadata are copied too.
      // (Valid keys hold only URL-safe characters, so the copy source needs no escaping.)
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${from}`,
          MetadataDirective: 'COPY',
          // The copy gets a whole-object checksum of its own (a multipart source has a composite
          // one, which would not match the copy's bytes read back as one object).
          ChecksumAlgorithm: 'CRC32',
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(from);
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    yield* this.listFrom(prefix);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    let count = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const keys = batch;
      batch = [];
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = result.Errors ?? [];
      if (failed.length) {
        const first = failed[0]!;
        throw new Error(
          `S3 could not delete ${failed.length} of ${keys.length} objects under "${prefix}" ` +
            `(first: ${first.Key}: ${first.Code} ${first.Message})`,
        );
      }
      count += keys.length;
    };
    // Deleting a page's keys does not disturb the continuation token of the listing.
    for await (const object of this.listFrom(prefix)) {
      batch.push(object.key);
      if (batch.length >= this.pageSize) await flush();
    }
    await flush();
    return count;
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertValidKey(key);
    // The name is ours (letters, digits, dots and dashes), so it needs no escaping.
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${options.filename}"`,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: Math.max(1, Math.floor(options.expiresInSeconds)),
    });
  }

  /**
   * Lets pages on `origins` read this bucket's download links from script (the gallery's
   * download fetches the image): GET and HEAD, with the headers a download needs to read. It
   * replaces the bucket's CORS rules, so this is the one place they are set.
   */
  async allowDownloadsFrom(origins: string[]): Promise<void> {
    await this.client.send(
      new PutBucketCorsCommand({
        Bucket: this.bucket,
        CORSConfiguration: { CORSRules: [downloadCorsRule(origins)] },
      }),
    );
  }

  async localFile(key: string): Promise<LocalFile> {
    const body = await this.get(key);
    const dir = await mkdtemp(path.join(this.tmpDir, 'studioshot-s3-'));
    const release = () => rm(dir, { recursive: true, force: true });
    const file = path.join(dir, path.posix.basename(key));
    try {
      await pipeline(body, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      await release();
      throw error;
    }
    return { path: file, release };
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async *listFrom(prefix: string): AsyncIterable<ListedObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: this.pageSize,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          lastModified: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async upload(
    key: string,
    body: Readable,
    options: PutOptions,
    contentLength?: number,
  ): Promise<void> {
    const upload = new Upload({
      client: this.client,
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ContentLength: contentLength,
      },
    });
    try {
      await upload.done();
    } finally {
      body.destroy();
    }
  }
}
