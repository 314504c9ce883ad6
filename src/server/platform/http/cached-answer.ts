import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { RecentlyUsed } from './recently-used';

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

/**
 * Both encodings, made once when the answer is made (off the main thread, in zlib's pool), so a request
 * only picks one. Brotli at its best quality is affordable because it runs once per cache fill.
 */
export async function compressBoth(body: Buffer): Promise<{ br: Buffer | null; gzip: Buffer | null }> {
  if (body.length < COMPRESS_MIN_BYTES) return { br: null, gzip: null };
  const [b, g] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
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

/**
 * Answers made lately, by content. When the cache's safety net refills an entry and the bytes come out the
 * same (the usual case: nothing changed), the answer made before is reused instead of compressing again:
 * brotli at its best quality on a rendered page costs hundreds of milliseconds of CPU, which a busy server
 * would take from the requests it is answering.
 */
const recentAnswers = new RecentlyUsed<CachedAnswer>(256);

export async function cachedAnswer(
  body: Buffer | string,
  type: string,
  options: { lastModified?: Date | null } = {},
): Promise<CachedAnswer> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const etag = strongEtag(bytes);
  const lastModified = options.lastModified ? options.lastModified.toUTCString() : null;
  const key = `${etag} ${type} ${lastModified}`;
  const known = recentAnswers.get(key);
  if (known) return known;
  const { br, gzip: gz } = await compressBoth(bytes);
  const answer: CachedAnswer = { type, body: bytes, etag, br, gzip: gz, lastModified };
  recentAnswers.set(key, answer);
  return answer;
}

/**
 * A JSON answer stripped and shaped by the route's own answer schema (the same work the route's serializer
 * would do on every request, done once).
 */
export function jsonAnswer<S extends z.ZodType>(schema: S, value: z.output<S>, options: { lastModified?: Date | null } = {}) {
  return cachedAnswer(JSON.stringify(schema.encode(value)), 'application/json; charset=utf-8', options);
}

/**
 * Which of brotli and gzip an Accept-Encoding header allows. A coding listed with q=0 is refused; `*`
 * stands for any coding the header does not list (RFC 9110 12.5.3).
 */
export function acceptedEncodings(header: string | string[] | undefined): { br: boolean; gzip: boolean } {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return { br: false, gzip: false };
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of value.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (name !== 'br' && name !== 'gzip' && name !== '*') continue;
    const q = semi === -1 ? null : /q\s*=\s*([\d.]+)/.exec(part.slice(semi));
    const weight = q ? Number(q[1]) : 1;
    if (name === 'br') br = weight;
    else if (name === 'gzip') gz = weight;
    else any = weight;
  }
  const allows = (own: number | undefined) => (own ?? any ?? 0) > 0;
  return { br: allows(br), gzip: allows(gz) };
}

/** The encoding to send among the forms that exist: brotli, then gzip, then none. */
export function chooseEncoding(
  acceptEncoding: string | string[] | undefined,
  forms: { br: unknown; gzip: unknown },
): 'br' | 'gzip' | null {
  if (!forms.br && !forms.gzip) return null;
  const accepted = acceptedEncodings(acceptEncoding);
  if (forms.br && accepted.br) return 'br';
  if (forms.gzip && accepted.gzip) return 'gzip';
  return null;
}

/** The bytes of the chosen form. */
export const bodyFor = (answer: CachedAnswer, encoding: 'br' | 'gzip' | null): Buffer =>
  encoding === 'br' ? answer.br! : encoding === 'gzip' ? answer.gzip! : answer.body;

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

/** How long the front door answers a public read by itself before the app is asked again. */
export const REMEMBER_MS = 1000;

/** A public read the front door repeats (see front-door.ts). */
export interface RememberedAnswer {
  answer: CachedAnswer;
  cacheControl: string;
  route: string;
  until: number;
}

/** What the front door keeps of answers (its `remembered` map, and whether it is in front of the app). */
interface AnswerMemory {
  assets: unknown;
  remembered: Map<string, RememberedAnswer>;
}

/** Notes a public read's cached answer so the front door can repeat it (paths without a query only). */
export function rememberAnswer(front: AnswerMemory, url: string, route: string, answer: CachedAnswer, cacheControl: string): void {
  if (front.assets === null || url.includes('?') || front.remembered.size > 10_000) return;
  front.remembered.set(url, { answer, cacheControl, route, until: performance.now() + REMEMBER_MS });
}

export interface SendOptions {
  cacheControl?: string;
  /**
   * The answer is the same for everyone (a public read), so the front door may repeat it for a moment
   * without asking the app again. Defaults to the route's `publicRead` flag.
   */
  sameForEveryone?: boolean;
}

/**
 * Sends a cached answer: 304 when the client already holds it, else the best encoding the client accepts.
 * Nothing is serialized or compressed here.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  options: SendOptions | string = {},
): FastifyReply {
  const { cacheControl = 'public, no-cache', sameForEveryone = request.routeOptions.config?.publicRead === true } =
    typeof options === 'string' ? { cacheControl: options } : options;
  const use = chooseEncoding(request.headers['accept-encoding'], answer);
  reply.header('ETag', etagFor(answer.etag, use));
  reply.header('Cache-Control', cacheControl);
  if (answer.br || answer.gzip) reply.header('Vary', 'Accept-Encoding');
  if (answer.lastModified) reply.header('Last-Modified', answer.lastModified);
  if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) {
    return reply.status(304).send();
  }
  if (sameForEveryone && reply.statusCode === 200 && request.server.deps.cache.enabled) {
    rememberAnswer(request.server.frontDoor, request.url, request.routeOptions.url ?? request.url, answer, cacheControl);
  }
  reply.header('Content-Type', answer.type);
  if (use) reply.header('Content-Encoding', use);
  return reply.send(bodyFor(answer, use));
}
