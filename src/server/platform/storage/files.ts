import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-data';

export interface StoredFile {
  size: number;
  contentType?: string;
}

/** Byte range, both ends inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where a key's bytes are, for whoever sends them (the delivery adapters, decision 0109): a file on this
 * machine's disk, or an object in a bucket with the client that reaches it.
 */
export type FileLocation = { kind: 'disk'; path: string } | { kind: 's3'; bucket: string; key: string; client: S3Client };

/** Reading a key that is not in the store. */
export class FileMissingError extends Error {
  constructor(key: string) {
    super(`file not found in the store: ${key}`);
    this.name = 'FileMissingError';
  }
}

/**
 * Where digital files live: local disk by default, S3-compatible storage at scale. Both stores keep the
 * same promises (files.contract.test.ts runs one suite against each): a write becomes visible whole or not
 * at all, so a failed or interrupted write leaves the previous file in service and nothing partial behind.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** For the operator: where the files are (a directory or a bucket). */
  readonly location: string;
  put(key: string, data: Buffer, contentType: string): Promise<StoredFile>;
  /** Streams a file in without holding it in memory; if `source` errors, nothing is stored. */
  write(key: string, source: Readable, contentType: string): Promise<StoredFile>;
  stat(key: string): Promise<StoredFile | null>;
  /** A plain stream of the bytes; rejects with FileMissingError when the key does not exist. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Where the key's bytes are (the file need not exist). */
  locate(key: string): FileLocation;
  remove(key: string): Promise<void>;
  /** Every key under a prefix (backups walk the store with it). */
  list(prefix?: string): Promise<string[]>;
}

/** Keys are slash-separated names made by the server; anything that could escape the root is refused. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,300}$/.test(key) || key.split('/').some((p) => p === '..' || p === '')) {
    throw new Error(`unsafe file key: ${key}`);
  }
}

/** Read size for streaming files from disk. */
export const READ_CHUNK = 1024 * 1024;

export class DiskFileStore implements FileStore {
  readonly kind = 'disk' as const;
  constructor(private readonly root: string) {}

  get location(): string {
    return this.root;
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredFile> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Write then rename, so a reader never sees half a file.
    const temp = this.tempPathFor(target);
    await fsp.writeFile(temp, data, { mode: PRIVATE_FILE_MODE });
    await fsp.rename(temp, target);
    return { size: data.length, contentType };
  }

  /** Temporary names end in `.tmp`, which no key the server makes does, and are unique per write. */
  private tempPathFor(target: string): string {
    return `${target}.${randomUUID()}.tmp`;
  }

  async write(key: string, source: Readable, contentType: string): Promise<StoredFile> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = this.tempPathFor(target);
    try {
      await pipeline(source, fs.createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      const { size } = await fsp.stat(temp);
      await fsp.rename(temp, target);
      return { size, contentType };
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    // Opened first, so a missing file rejects here rather than erroring the stream mid-answer. Large reads:
    // a 50 MB download is 50 read and write calls instead of 800, and ten at once still hold only about
    // 1 MB each (the stream waits while the socket is full).
    const handle = await fsp.open(this.pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' || error.code === 'EISDIR' ? new FileMissingError(key) : error;
    });
    return handle.createReadStream({ highWaterMark: READ_CHUNK, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  locate(key: string): FileLocation {
    return { kind: 'disk', path: this.pathOf(key) };
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async list(prefix = ''): Promise<string[]> {
    const entries = await fsp.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
      .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }
}

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Multipart part size for streamed uploads: memory per upload is about parts in flight x this. */
const S3_PART_SIZE = 8 * 1024 * 1024;

export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default
      // trailing checksums on streamed bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredFile> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: data, ContentType: contentType }),
    );
    return { size: data.length, contentType };
  }

  /** Rejects unless the bucket exists and these credentials may use it: the start's check. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  get location(): string {
    return `s3://${this.options.bucket}${this.options.endpoint ? ` at ${this.options.endpoint}` : ''}`;
  }

  async write(key: string, source: Readable, contentType: string): Promise<StoredFile> {
    assertSafeKey(key);
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    // Multipart: parts go up as they fill, and the object appears only when the upload completes; on
    // any error the upload is aborted, so the previous object stays and no parts are left behind.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: key, Body: source, ContentType: contentType },
      partSize: S3_PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    const failed = new Promise<never>((_, reject) => source.once('error', reject));
    try {
      await Promise.race([upload.done(), failed]);
    } catch (error) {
      await upload.abort().catch(() => undefined);
      throw error;
    }
    return { size, contentType };
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType };
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return null;
      throw error;
    }
  }

  /** The object's body is the HTTP response itself: bytes flow through, nothing is buffered whole. */
  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return object.Body as Readable;
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') throw new FileMissingError(key);
      throw error;
    }
  }

  locate(key: string): FileLocation {
    assertSafeKey(key);
    return { kind: 's3', bucket: this.options.bucket, key, client: this.client };
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
}

/** The store the configuration names: S3 when S3_BUCKET is set, else DATA_DIR/files on disk. */
export function createFileStore(config: {
  dataDir: string;
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
}): FileStore {
  return config.S3_BUCKET
    ? new S3FileStore({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      })
    : new DiskFileStore(path.join(config.dataDir, 'files'));
}
