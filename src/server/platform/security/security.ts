import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers, worked out once: helmet's middleware is run a single time against a recorder and
 * the headers it sets are kept. (Building them per request cost about a tenth of a cached read.)
 */
export function securityHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The policy of an answer that is a reader's file rather than a page: whatever the file holds, it never runs,
 * loads anything or is framed as a page of this origin. It replaces the pages' policy, which allows what the
 * pages need (the trailer's frame, inline styles) and is some 400 bytes longer.
 */
export const FILE_CONTENT_POLICY = "default-src 'none'; sandbox";

/** Sent only on answers to https requests (see docs/decisions/0012-transport-headers.md). */
export const HSTS: [string, string] = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'];

/**
 * Browser features no page of the site uses are off for the site and anything it embeds. Kept on: the
 * trailer (YouTube, in a frame) may autoplay, go full screen, play protected media and picture-in-picture;
 * our own pages may write to the clipboard (copy a link) and go full screen. Payments happen on the
 * provider's own page, so the Payment Request API stays off here. Only names Chromium knows are listed:
 * an unknown one (ambient-light-sensor, bluetooth) makes it log an error on every page.
 */
const YOUTUBE = '"https://www.youtube-nocookie.com"';
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  `autoplay=(self ${YOUTUBE})`,
  'camera=()',
  'display-capture=()',
  `encrypted-media=(self ${YOUTUBE})`,
  `fullscreen=(self ${YOUTUBE})`,
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  `picture-in-picture=(self ${YOUTUBE})`,
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether a request reached us from a proxy that TRUST_PROXY trusts (true, a hop count, or addresses and
 * ranges): only such a proxy's forwarded headers (protocol, request id) are believed.
 */
export function trustedProxyCheck(trustProxy: boolean | string | number): (req: IncomingMessage) => boolean {
  let trusted: (address: string) => boolean;
  if (trustProxy === true) trusted = () => true;
  else if (typeof trustProxy === 'number') trusted = () => trustProxy > 0;
  else if (typeof trustProxy === 'string' && trustProxy) {
    const list = new BlockList();
    for (const entry of trustProxy.split(',').flatMap((v) => NAMED_RANGES[v.trim()] ?? [v.trim()])) {
      const [address, bits] = entry.split('/');
      const type = isIPv6(address) ? 'ipv6' : 'ipv4';
      if (bits) list.addSubnet(address, Number(bits), type);
      else list.addAddress(address, type);
    }
    trusted = (address) => {
      const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
      return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
    };
  } else return () => false;
  return (req) => {
    const address = req.socket?.remoteAddress;
    return address !== undefined && trusted(address);
  };
}

/**
 * Whether a request came over https, by the same rule the framework uses for `request.protocol`: a TLS
 * socket, or `X-Forwarded-Proto: https` set by a trusted proxy. A forwarded header from anyone else says
 * nothing. Also used by the front door, which answers static files before the framework sees the request.
 */
export function httpsDetector(trustProxy: boolean | string | number): (req: IncomingMessage) => boolean {
  const fromTrustedProxy = trustedProxyCheck(trustProxy);
  return (req) => {
    const socket = req.socket as (typeof req.socket & { encrypted?: boolean }) | undefined;
    if (socket?.encrypted) return true;
    const forwarded = req.headers['x-forwarded-proto'];
    if (!forwarded || !fromTrustedProxy(req)) return false;
    // The proxy nearest to us appends last.
    const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    return value.split(',').pop()!.trim().toLowerCase() === 'https';
  };
}

/**
 * Security headers for every answer. Scripts only from this origin; no inline script anywhere. Returns the
 * headers (HSTS aside, which is per request), so the front door sends exactly these on what it answers.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: { stripe: boolean; isHttps: (req: IncomingMessage) => boolean },
): Promise<Array<[string, string]>> {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // blob: for the reading room only: the EPUB renderer hands each book page, and the stylesheets,
        // images and fonts inside the book, to a sandboxed frame as blob: URLs made by our own script.
        // Scripts never get blob: (see docs/decisions/0030-reading-room-sandbox.md).
        styleSrc: ["'self'", "'unsafe-inline'", 'blob:'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://i.ytimg.com'],
        fontSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'"],
        frameSrc: ['blob:', 'https://www.youtube-nocookie.com'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", ...(opts.stripe ? ['https://checkout.stripe.com'] : [])],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Per request instead: a browser must only hear it over https (a plain-http answer, e.g. a local
    // run, would otherwise carry it).
    strictTransportSecurity: false,
  });
  headers.push(['Permissions-Policy', PERMISSIONS_POLICY]);
  const { isHttps } = opts;
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    if (isHttps(request.raw)) raw.setHeader(HSTS[0], HSTS[1]);
    done();
  });
  return headers;
}
