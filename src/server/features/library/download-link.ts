import { hmac, safeEqual } from '../../platform/security/crypto';

/** A download link lives this long: enough to finish (or resume) a transfer, too short to share. */
export const DOWNLOAD_LINK_TTL_MS = 10 * 60 * 1000;

export interface DownloadGrant {
  /** The link's own random id: the key of its one transfer (download_transfers). */
  linkId: string;
  assetId: number;
  purchaseId: number;
  userId: number;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const sign = (secret: string, payload: string) => hmac(secret, `download:${payload}`);

/** `<payload>.<signature>`, both base64url, so the token is safe in a URL path. */
export function createDownloadToken(secret: string, grant: DownloadGrant): string {
  const payload = Buffer.from(
    JSON.stringify({ l: grant.linkId, a: grant.assetId, p: grant.purchaseId, u: grant.userId, e: grant.expiresAt }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export type TokenCheck = { ok: true; grant: DownloadGrant } | { ok: false; reason: 'invalid' | 'expired' };

/** The signature is checked before anything in the payload is believed; expiry only after that. */
export function verifyDownloadToken(secret: string, token: string, now: Date): TokenCheck {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || token.length > 512) return { ok: false, reason: 'invalid' };
  if (!safeEqual(signature, sign(secret, payload))) return { ok: false, reason: 'invalid' };
  let data: { l?: unknown; a?: unknown; p?: unknown; u?: unknown; e?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const { l, a, p, u, e } = data;
  if (![a, p, u, e].every((v) => typeof v === 'number' && Number.isSafeInteger(v))) {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof l !== 'string' || !/^[\w-]{16,64}$/.test(l)) return { ok: false, reason: 'invalid' };
  if ((e as number) <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, grant: { linkId: l, assetId: a as number, purchaseId: p as number, userId: u as number, expiresAt: e as number } };
}

const FORMAT_EXTENSIONS: Record<string, string> = { ebook: 'epub', pdf: 'pdf', audiobook: 'm4b' };

/**
 * The name a reader's file is saved under: the book's title with the file's own extension ("What We Owe
 * the Dead.epub"), never the name of the author's upload. Characters no file system takes are dropped.
 */
export function readerFileName(title: string, format: string, uploadedName: string): string {
  const extension = /\.([a-z0-9]{1,5})$/i.exec(uploadedName)?.[1]?.toLowerCase() ?? FORMAT_EXTENSIONS[format] ?? 'bin';
  const base = title
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 150);
  return `${base || 'Book'}.${extension}`;
}

/**
 * Content-Disposition for a file name in any script: a plain ASCII `filename` for old clients and the
 * exact name as `filename*` (RFC 6266 with RFC 5987's UTF-8 encoding), which every current browser uses.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '')
    .trim();
  // A title in another script leaves nothing readable in ASCII: the fallback is then just "book.epub".
  const fallback = /[A-Za-z0-9][^.]*\./.test(ascii) ? ascii : `book${/\.[a-z0-9]+$/i.exec(name)?.[0] ?? ''}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
