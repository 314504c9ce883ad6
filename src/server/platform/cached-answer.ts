import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { rememberAnswer } from './front-door';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Bodies smaller than this are sent as they are: compressing them saves less than the headers cost. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * An answer built once per cache fill: the bytes, their strong ETag, and their brotli and gzip forms, so a
 * request only picks one and writes it. Each encoding has its own strong ETag (they are different bytes).
 */
export interface CachedAnswer {
  type: string;
  body: Buffer;
  etag: string;
  br: Buffer | null;
  gzip: Buffer | null;
  lastModified: string | null;
}

/** Compresses off the main thread (zlib's thread pool), brotli at its best for small text. */
export async function compressBoth(body: Buffer): Promise<{ br: Buffer | null; gzip: Buffer | null }> {
  if (body.length < COMPRESS_MIN_BYTES) return { br: null, gzip: null };
  const [b, g] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: body.length > 1 << 20 ? 9 : 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  // A form that is not smaller is not worth a Content-Encoding.
  return { br: b.length < body.length ? b : null, gzip: g.length < body.length ? g : null };
}

export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export async function cachedAnswer(
  body: Buffer | string,
  type: string,
  options: { lastModified?: Date | null } = {},
): Promise<CachedAnswer> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const { br, gzip: gz } = await compressBoth(bytes);
  return {
    type,
    body: bytes,
    etag: strongEtag(bytes),
    br,
    gzip: gz,
    lastModified: options.lastModified ? options.lastModified.toUTCString() : null,
  };
}

/**
 * A JSON answer stripped and shaped by the route's own answer schema (the same work the route's serializer
 * would do on every request, done once).
 */
export function jsonAnswer<S extends z.ZodType>(schema: S, value: z.output<S>, options: { lastModified?: Date | null } = {}) {
  return cachedAnswer(JSON.stringify(schema.encode(value)), 'application/json; charset=utf-8', options);
}

/** Which of brotli and gzip an Accept-Encoding header allows (`q=0` refuses a coding; `*` allows both). */
export function acceptedEncodings(acceptEncoding: string | undefined): { br: boolean; gzip: boolean } {
  const accepted = { br: false, gzip: false };
  if (!acceptEncoding) return accepted;
  for (const part of acceptEncoding.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (name !== 'br' && name !== 'gzip' && name !== '*') continue;
    const q = semi === -1 ? null : /q\s*=\s*([\d.]+)/.exec(part.slice(semi));
    if (q && Number(q[1]) === 0) continue;
    if (name === 'br' || name === '*') accepted.br = true;
    if (name === 'gzip' || name === '*') accepted.gzip = true;
  }
  return accepted;
}

/** The encoding to send among the forms that exist: brotli, then gzip, then none. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  forms: { br: unknown; gzip: unknown },
): 'br' | 'gzip' | null {
  if (!forms.br && !forms.gzip) return null;
  const accepted = acceptedEncodings(acceptEncoding);
  if (forms.br && accepted.br) return 'br';
  if (forms.gzip && accepted.gzip) return 'gzip';
  return null;
}

const SUFFIX = { br: '-br"', gzip: '-gz"' } as const;
export const etagFor = (etag: string, encoding: 'br' | 'gzip' | null) =>
  encoding ? etag.slice(0, -1) + SUFFIX[encoding] : etag;

/** True when an If-None-Match list names any form of this answer (or is `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const base = etag.slice(1, -1);
  for (const raw of header.split(',')) {
    let tag = raw.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2); // If-None-Match compares weakly (RFC 9110 13.1.2)
    if (tag.length < 2 || tag[0] !== '"') continue;
    const inner = tag.slice(1, -1);
    if (inner === base || inner === `${base}-br` || inner === `${base}-gz`) return true;
  }
  return false;
}

/**
 * Sends a cached answer: 304 when the client already holds it, else the best encoding the client accepts.
 * Nothing is serialized or compressed here.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  cacheControl = 'public, no-cache',
): FastifyReply {
  const use = chooseEncoding(request.headers['accept-encoding'], answer);
  const etag = etagFor(answer.etag, use);
  reply.header('ETag', etag);
  reply.header('Cache-Control', cacheControl);
  if (answer.br || answer.gzip) reply.header('Vary', 'Accept-Encoding');
  if (answer.lastModified) reply.header('Last-Modified', answer.lastModified);
  if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) {
    return reply.status(304).send();
  }
  // The same answer for everyone: the front door may repeat it for a moment without asking the app again.
  if (request.routeOptions.config?.publicRead && request.server.deps.cache.enabled) {
    rememberAnswer(request.server.frontDoor, request.url, request.routeOptions.url ?? request.url, answer, cacheControl);
  }
  reply.header('Content-Type', answer.type);
  if (use) reply.header('Content-Encoding', use);
  return reply.send(use === 'br' ? answer.br! : use === 'gzip' ? answer.gzip! : answer.body);
}
