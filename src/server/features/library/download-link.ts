import { hmac, safeEqual } from '../../platform/crypto';

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

/** A file name safe in a header and on any file system: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string, fallback = 'download'): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 120);
  return cleaned || fallback;
}
