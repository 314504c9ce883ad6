import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../../platform/storage/files';
import { type OwnedFile, openEntitledFile } from './owned-file';
import { FILE_NOT_READY_MESSAGE } from '@shared/schemas/library';
import { attachmentDisposition, verifyDownloadToken } from './download-link';
import { LINK_USED_MESSAGE, type TransferStep, completeTransfer, isTransferComplete, stepTransfer } from './transfers';
import { escapeMarkup } from '../../platform/http/markup';
import { FILE_CONTENT_POLICY } from '../../platform/security/security';
import { availableOnMessage } from '@shared/schemas/pre-orders';

/** Parses a single-range `Range` header; null means "send it all", 'unsatisfiable' means 416. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges or other units: ignoring Range and sending the whole file is allowed (RFC 9110).
  if (!match) return null;
  const [, startText, endText] = match;
  if (startText === '' && endText === '') return null;
  if (size === 0) return 'unsatisfiable';
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * The part of the file this request asks for; If-Range resumes only while the file has not changed. When
 * the bytes come from a signed S3 link, S3 judges If-Range against the ETag it gave the client, so the app
 * leaves it to S3 (the transfer's version check still holds, see transfers.ts).
 */
export function requestedRange(request: FastifyRequest, file: Pick<OwnedFile, 'size' | 'etag'>, options: { ifRange: boolean } = { ifRange: true }) {
  const ifRange = options.ifRange ? request.headers['if-range'] : undefined;
  const rangeHeader = !ifRange || ifRange === file.etag ? request.headers.range : undefined;
  return parseRange(rangeHeader, file.size);
}

/**
 * Answers with an owned file, with Range and If-Range support (206 for a satisfiable single range, 416 for
 * an unsatisfiable one); the delivery port (decision 0109) gets the bytes out. The caller sets
 * Content-Disposition and Cache-Control.
 */
export async function sendOwnedFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: OwnedFile,
  range: ByteRange | null | 'unsatisfiable' = requestedRange(request, file),
) {
  const { size, etag } = file;
  reply.header('Content-Type', file.contentType);
  reply.header('Accept-Ranges', 'bytes');
  reply.header('ETag', etag);
  reply.header('Last-Modified', file.lastModified.toUTCString());
  reply.header('X-Content-Type-Options', 'nosniff');

  if (range === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${size}`);
    return reply.status(416).send();
  }
  const length = range ? range.end - range.start + 1 : size;
  if (range) {
    reply.status(206);
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  }
  reply.header('Content-Length', String(length));
  if (request.method === 'HEAD') return reply.send();
  return request.server.deps.delivery.send(request, reply, file, range);
}

function refuse(request: FastifyRequest, reply: FastifyReply, status: number, code: string, message: string) {
  reply.header('Cache-Control', 'no-store');
  // Someone following the link in a browser gets a readable page; scripts get the JSON error shape.
  if ((request.headers.accept ?? '').includes('text/html')) {
    const escaped = escapeMarkup(message);
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Download unavailable</title></head>` +
          `<body style="font-family:system-ui,sans-serif;background:#09080a;color:#ede5d5;padding:3rem">` +
          `<h1>Download unavailable</h1><p>${escaped}</p><p><a style="color:#ef5a60" href="/profile#library">Back to your library</a></p></body></html>`,
      );
  }
  return reply.status(status).send({ message, code });
}

/**
 * GET /files/download/:token streams a purchased file. The signed token is the permission (it names the
 * link, purchase, asset and user and expires in minutes); the download was already counted when the link
 * was issued. The link serves one transfer: Range requests resume it, a second whole download is refused.
 */
export const fileRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps.database;

  /**
   * Whether this request may send bytes of the link's one transfer. A HEAD or an unsatisfiable range sends
   * none, so it claims nothing (it is only refused once the transfer is over); a response that reaches the
   * last byte closes the transfer when this process has handed it to the network in full. When nginx or S3
   * sends the bytes the app never sees them go, so the transfer stays open to resumes until the link
   * expires (decision 0109).
   */
  async function transferStep(
    request: FastifyRequest,
    reply: FastifyReply,
    linkId: string,
    file: OwnedFile,
    range: ByteRange | null | 'unsatisfiable',
    sendsBytes: boolean,
  ): Promise<TransferStep | 'headers-only'> {
    if (request.method === 'HEAD' || range === 'unsatisfiable') {
      const complete = await isTransferComplete(db, linkId);
      return complete === null ? 'unknown' : complete ? 'used' : 'headers-only';
    }
    const now = app.deps.clock.now();
    const step = await stepTransfer(db, { linkId, etag: file.etag, size: file.size, ranged: range !== null, now });
    if (sendsBytes && (step === 'claimed' || step === 'resumed') && (range === null || range.end === file.size - 1)) {
      reply.raw.once('finish', () => {
        completeTransfer(db, linkId, app.deps.clock.now()).catch((error) =>
          request.log.error({ err: error, linkId }, 'could not close a finished download transfer'),
        );
      });
    }
    return step;
  }

  app.route<{ Params: { token: string } }>({
    method: ['GET', 'HEAD'],
    url: '/files/download/:token',
    exposeHeadRoute: false,
    schema: { hide: true },
    handler: async (request, reply) => {
      const check = verifyDownloadToken(app.deps.secret, request.params.token, app.deps.clock.now());
      if (!check.ok) {
        return check.reason === 'expired'
          ? refuse(request, reply, 410, 'LINK_EXPIRED', 'This download link has expired. Download links are valid for 10 minutes.')
          : refuse(request, reply, 403, 'LINK_INVALID', 'This download link is not valid.');
      }
      const { grant } = check;
      const opened = await openEntitledFile(app.deps, grant, app.deps.clock.now());
      // A link issued before a release date was moved later must not open the book early either.
      if (!opened.ok && opened.reason === 'not-released') return refuse(request, reply, 403, 'NOT_RELEASED', availableOnMessage(opened.availableAt));
      if ((opened.ok && opened.file.assetId !== grant.assetId) || (!opened.ok && (opened.reason === 'not-entitled' || opened.reason === 'no-asset'))) {
        return refuse(request, reply, 403, 'LINK_INVALID', 'This download link is no longer valid.');
      }
      if (!opened.ok) {
        request.log.error({ assetId: grant.assetId, key: opened.key, reason: opened.reason }, 'digital asset file is missing from the file store or cannot be opened');
        return refuse(request, reply, 404, 'NOT_FOUND', FILE_NOT_READY_MESSAGE);
      }
      const { file } = opened;
      const { delivery } = app.deps;
      const edge = delivery.mode === 'edge';
      const range = requestedRange(request, file, { ifRange: !edge });
      const fromS3 = edge && request.method === 'GET' && range !== 'unsatisfiable';
      const sendsBytes = !fromS3 && delivery.sendsBytes(request, file);
      const step = await transferStep(request, reply, grant.linkId, file, range, sendsBytes);
      if (step === 'used') return refuse(request, reply, 410, 'LINK_USED', LINK_USED_MESSAGE);
      if (step === 'unknown') return refuse(request, reply, 403, 'LINK_INVALID', 'This download link is no longer valid.');
      const disposition = attachmentDisposition(file.fileName);
      reply.header('Cache-Control', 'no-store');
      // Never run or framed as a page of this origin, whatever the file holds (as in the reading room).
      reply.header('Content-Security-Policy', FILE_CONTENT_POLICY);
      const link = fromS3 ? await delivery.downloadLink(file, { contentDisposition: disposition }) : null;
      // The signed link carries the Range the client sends again when it follows it.
      if (link) return reply.redirect(link, 302);
      reply.header('Content-Disposition', disposition);
      return sendOwnedFile(request, reply, file, range);
    },
  });
};
