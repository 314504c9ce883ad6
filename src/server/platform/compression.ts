/**
 * Compression of answers the server builds once and keeps (rendered pages, the app shell): both
 * encodings are made when the answer is made, so a request only picks one. Brotli at its best quality
 * is affordable here because it runs once per cache fill, not per request.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip';

export interface Compressed {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export async function compressBoth(text: string | Buffer): Promise<Compressed> {
  const identity = typeof text === 'string' ? Buffer.from(text) : text;
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz };
}

/**
 * The encoding to send for an Accept-Encoding header: brotli when accepted, else gzip, else none.
 * A coding listed with q=0 is refused; `*` stands for any coding not listed.
 */
export function pickEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return null;
  const weights = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => {
    const own = weights.get(coding);
    if (own !== undefined) return own > 0;
    const any = weights.get('*');
    return any !== undefined && any > 0;
  };
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}
