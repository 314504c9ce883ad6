/**
 * The delivery port (decision 0109): once a route has decided that a file may go out, which part of it and
 * with which headers, an adapter chosen by DELIVERY gets the bytes to the client.
 *
 * - in-process (the default): this process sends them; from disk through @fastify/send, from S3 streamed.
 * - proxy: nginx in front sends the files; the answer only names them (X-Accel-Redirect): a path on disk,
 *   or a short-lived signed GET of the S3 object that nginx fetches and passes on.
 * - edge: downloads are fetched from S3 itself with a short-lived signed link; the rest is in-process.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ByteRange, type FileLocation, FileMissingError, type FileStore, READ_CHUNK } from '../storage/files';

export type DeliveryMode = 'in-process' | 'proxy' | 'edge';

/** A stored file the app has decided to send. */
export interface DeliveredFile {
  contentType: string;
  size: number;
  /** The storage key the bytes are read from. */
  key: string;
  /** The part of the stored object that is this file (an episode cut from an audiobook); absent: all of it. */
  slice?: ByteRange;
}

/** How long a signed S3 link handed out by the edge adapter may be fetched. */
export const EDGE_LINK_SECONDS = 60;

/**
 * How long the signed GET that the proxy adapter hands to nginx may be used. Only nginx sees it, and nginx
 * starts the fetch within milliseconds of the app's answer; S3 checks the expiry when a request starts, not
 * while its bytes flow, so a long download is not cut short. The seconds are a margin for the clocks of the
 * app's host and the store's, which may disagree a little.
 */
export const PROXY_LINK_SECONDS = 10;

/** The conditional request headers whose outcome the app alone decides (it ignores all but If-Range). */
const CONDITIONALS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'] as const;

export interface Delivery {
  readonly mode: DeliveryMode;
  /**
   * Whether this answer's bytes will leave through this process, so that the answer's `finish` means the
   * client has been handed all of them. False when nginx sends them.
   */
  sendsBytes(request: FastifyRequest, file: DeliveredFile): boolean;
  /**
   * Sends the body of an answer whose status and headers (Content-Length, Content-Range) the caller has set
   * for `range` (null: the whole file).
   */
  send(request: FastifyRequest, reply: FastifyReply, file: DeliveredFile, range: ByteRange | null): Promise<FastifyReply>;
  /** A link the client fetches a download from itself, or null when the app answers with the bytes. */
  downloadLink(file: DeliveredFile, headers: { contentDisposition: string }): Promise<string | null>;
}

/** The byte range of the stored object that a range of the file is. */
function storedRange(file: DeliveredFile, range: ByteRange | null): ByteRange | null {
  if (!file.slice) return range;
  const { start } = file.slice;
  return range ? { start: start + range.start, end: start + range.end } : file.slice;
}

/**
 * The bytes of the range from the store. A file on disk goes out through @fastify/send, which opens it and
 * streams the range; it is given a request with no headers because the route has already decided the
 * range and the conditional rules (decision 0019), which must not be judged a second time differently.
 */
async function storedBytes(files: FileStore, file: DeliveredFile, range: ByteRange | null): Promise<Readable> {
  const bytes = storedRange(file, range);
  const where = files.locate(file.key);
  if (where.kind !== 'disk') return files.read(file.key, bytes ?? undefined);
  const request = { method: 'GET', headers: {} } as unknown as Readable;
  const sent = await send(request, path.basename(where.path), {
    root: path.dirname(where.path),
    // Keys are checked by the store (assertSafeKey); the data directory itself may sit under a dot-folder.
    dotfiles: 'allow',
    index: false,
    acceptRanges: false,
    cacheControl: false,
    etag: false,
    lastModified: false,
    contentType: false,
    highWaterMark: READ_CHUNK,
    ...(bytes ? { start: bytes.start, end: bytes.end } : {}),
  });
  if (sent.statusCode !== 200) throw new FileMissingError(file.key);
  return sent.stream;
}

class InProcessDelivery implements Delivery {
  readonly mode: DeliveryMode = 'in-process';
  constructor(protected readonly files: FileStore) {}

  sendsBytes(_request: FastifyRequest, _file: DeliveredFile): boolean {
    return true;
  }

  async send(_request: FastifyRequest, reply: FastifyReply, file: DeliveredFile, range: ByteRange | null) {
    return reply.send(await storedBytes(this.files, file, range));
  }

  async downloadLink(_file: DeliveredFile, _headers: { contentDisposition: string }): Promise<string | null> {
    return null;
  }
}

/**
 * nginx sends the files: the answer carries the file's headers and X-Accel-Redirect to an `internal`
 * location, and no body (deploy/nginx.conf).
 *
 * From disk, the location aliases the files directory and nginx applies the request's Range and If-Range
 * itself, against the ETag and Last-Modified the app sends; it is handed only requests it decides exactly as
 * the app did, the others are sent in-process.
 *
 * From S3, the redirect carries a GET of the object signed for PROXY_LINK_SECONDS, which the location
 * proxies to the store. nginx judges nothing there: the answer keeps the Content-Range the app decided, and
 * nginx asks S3 for exactly that range (signed into the link, so S3 refuses any other) and passes on neither
 * the client's Range nor its If-Range or other conditionals, which S3 would judge against its own ETag.
 */
class ProxyDelivery extends InProcessDelivery {
  override readonly mode: DeliveryMode = 'proxy';
  constructor(
    files: FileStore,
    private readonly paths: { internalPath: string; internalS3Path: string },
  ) {
    super(files);
  }

  override sendsBytes(request: FastifyRequest, file: DeliveredFile): boolean {
    // A slice is a range of a larger stored object: S3 would answer with that object's range and length.
    if (file.slice) return true;
    if (this.files.locate(file.key).kind === 's3') return false;
    // nginx answers these conditionals with 304 or 412 against its own view of the file, where the app
    // sends the file; and it honours an If-Range date, which the app treats as a changed file.
    if (CONDITIONALS.some((name) => request.headers[name] !== undefined)) return true;
    const ifRange = request.headers['if-range'];
    return ifRange !== undefined && !String(ifRange).endsWith('"');
  }

  override async send(request: FastifyRequest, reply: FastifyReply, file: DeliveredFile, range: ByteRange | null) {
    if (this.sendsBytes(request, file)) return super.send(request, reply, file, range);
    const where = this.files.locate(file.key);
    if (where.kind === 's3') {
      // nginx reads the decided range from Content-Range; S3's answer gives the status and length.
      reply.status(200);
      reply.removeHeader('Accept-Ranges');
      reply.header('Content-Length', '0');
      reply.header('X-Accel-Redirect', await this.signedFetch(where, range));
      return reply.send();
    }
    // nginx works out the status, length and range of what it sends from the request itself.
    reply.status(200);
    reply.removeHeader('Content-Range');
    reply.removeHeader('Accept-Ranges');
    reply.header('Content-Length', '0');
    reply.header('X-Accel-Redirect', `${this.paths.internalPath}${file.key}`);
    return reply.send();
  }

  /** The internal path nginx proxies to the store: the signed GET's path and query under the S3 location. */
  private async signedFetch(where: Extract<FileLocation, { kind: 's3' }>, range: ByteRange | null): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: where.bucket,
      Key: where.key,
      Range: range ? `bytes=${range.start}-${range.end}` : undefined,
    });
    const signed = new URL(await getSignedUrl(where.client, command, { expiresIn: PROXY_LINK_SECONDS }));
    return `${this.paths.internalS3Path}${signed.pathname.slice(1)}${signed.search}`;
  }
}

/**
 * Downloads are fetched from S3 itself: a GET signed for EDGE_LINK_SECONDS that answers with the app's
 * Content-Type and Content-Disposition. Other answers (the reading room, feeds) stream in-process.
 */
class EdgeDelivery extends InProcessDelivery {
  override readonly mode: DeliveryMode = 'edge';

  override async downloadLink(file: DeliveredFile, headers: { contentDisposition: string }): Promise<string | null> {
    const where = this.files.locate(file.key);
    if (where.kind !== 's3' || file.slice) return null;
    const command = new GetObjectCommand({
      Bucket: where.bucket,
      Key: where.key,
      ResponseContentType: file.contentType,
      ResponseContentDisposition: headers.contentDisposition,
      ResponseCacheControl: 'no-store',
    });
    return getSignedUrl(where.client, command, { expiresIn: EDGE_LINK_SECONDS });
  }
}

export function createDelivery(
  mode: DeliveryMode,
  files: FileStore,
  options: { internalPath: string; internalS3Path: string },
): Delivery {
  if (mode === 'proxy') return new ProxyDelivery(files, options);
  if (mode === 'edge') return new EdgeDelivery(files);
  return new InProcessDelivery(files);
}
