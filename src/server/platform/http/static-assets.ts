import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { chooseEncoding, compressBoth, etagFor, matchesIfNoneMatch, strongEtag } from './cached-answer';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.epub': 'application/epub+zip',
};
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.webmanifest', '.txt', '.xml', '.svg']);
/** Files above this stay on disk and are streamed (nothing the build makes is near it). */
/** Headers that only govern a document (or a window), never a script, stylesheet, font or image it loads. */
const DOCUMENT_ONLY = new Set([
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
  'x-permitted-cross-domain-policies',
]);

const MAX_IN_MEMORY = 8 * 1024 * 1024;

export interface StaticFile {
  urlPath: string;
  type: string;
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
  cacheControl: string;
  lastModified: string;
  compressible: boolean;
}

/** A script the build emitted for a worker (pdf.js's `pdf.worker.min-*.mjs`, Vite's `*worker*` chunks). */
const isWorkerScript = (file: StaticFile) => file.type.includes('javascript') && /worker/i.test(file.urlPath.slice(file.urlPath.lastIndexOf('/')));

/**
 * The built client's files held in memory with their compressed forms: the `.br` and `.gz` files the build
 * wrote beside them, or (for any that lack them) forms compressed once, off the main thread, after start.
 * A request only picks bytes and writes them; nothing is read from disk or compressed per request.
 */
export class StaticAssets {
  private readonly files = new Map<string, StaticFile>();
  /** Headers every answer of the app carries (security headers), learnt once from the app itself. */
  private commonHeaders: Array<[string, string]> | null = null;
  private scriptHeaders: Array<[string, string]> | null = null;
  private subresourceHeaders: Array<[string, string]> | null = null;

  static async load(root: string, options: { skip?: (rel: string) => boolean } = {}): Promise<StaticAssets> {
    const assets = new StaticAssets();
    if (!fs.existsSync(root)) return assets;
    const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
    const names = new Set(
      entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')),
    );
    await Promise.all(
      [...names].map(async (rel) => {
        const ext = path.extname(rel).toLowerCase();
        // Compressed siblings are served in place of their original, never under their own name.
        if ((ext === '.br' || ext === '.gz') && names.has(rel.slice(0, -ext.length))) return;
        if (options.skip?.(rel)) return;
        const full = path.join(root, rel);
        const stat = await fsp.stat(full);
        if (stat.size > MAX_IN_MEMORY) return;
        const compressible = COMPRESSIBLE.has(ext);
        const [body, br, gzip] = await Promise.all([
          fsp.readFile(full),
          compressible && names.has(`${rel}.br`) ? fsp.readFile(`${full}.br`) : null,
          compressible && names.has(`${rel}.gz`) ? fsp.readFile(`${full}.gz`) : null,
        ]);
        const urlPath = `/${rel}`;
        assets.files.set(urlPath, {
          urlPath,
          type: TYPES[ext] ?? 'application/octet-stream',
          body,
          br,
          gzip,
          etag: strongEtag(body),
          cacheControl: rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
          lastModified: stat.mtime.toUTCString(),
          compressible,
        });
      }),
    );
    return assets;
  }

  get size(): number {
    return this.files.size;
  }

  list(): StaticFile[] {
    return [...this.files.values()];
  }

  lookup(urlPath: string): StaticFile | undefined {
    return this.files.get(urlPath);
  }

  /** Compresses, once and in the background, the text files the build left without `.br`/`.gz`. */
  async compressMissing(): Promise<void> {
    for (const file of this.files.values()) {
      if (!file.compressible || (file.br && file.gzip)) continue;
      const made = await compressBoth(file.body);
      file.br ??= made.br;
      file.gzip ??= made.gzip;
    }
  }

  /** The headers every answer of the app carries (the security headers; empty until the app sets them). */
  common(): Array<[string, string]> {
    return this.commonHeaders ?? [];
  }

  setCommonHeaders(headers: Array<[string, string]>): void {
    this.commonHeaders = headers;
    this.scriptHeaders = headers.filter(([name]) => !DOCUMENT_ONLY.has(name.toLowerCase()));
    this.subresourceHeaders = this.scriptHeaders.filter(([name]) => name.toLowerCase() !== 'content-security-policy');
  }

  /**
   * The common headers that mean something for this file. Those that only govern a document (framing,
   * opener, permissions...) are left off the files a page loads, which saves about half a kilobyte on each
   * of them. A worker's script keeps the content security policy, since a worker takes its policy from its
   * script; a module a page imports runs under the page's policy, so it goes without (400 bytes a chunk).
   */
  private commonFor(file: StaticFile): Array<[string, string]> {
    if (file.type.startsWith('text/html')) return this.commonHeaders ?? [];
    // An SVG opened on its own is a document, but one without controls to frame or features to ask for:
    // the content security policy, which stops any script in it, is what it needs.
    const keepsPolicy = isWorkerScript(file) || file.type.startsWith('image/svg');
    return (keepsPolicy ? this.scriptHeaders : this.subresourceHeaders) ?? [];
  }

  /** The status, file-specific headers (flat name, value list) and body of a file's answer to this request. */
  answer(file: StaticFile, req: IncomingMessage, headers: string[] = []): { status: number; headers: string[]; body: Buffer | null } {
    const encoding = file.compressible ? chooseEncoding(req.headers['accept-encoding'], file) : null;
    headers.push('cache-control', file.cacheControl, 'etag', etagFor(file.etag, encoding), 'last-modified', file.lastModified);
    if (file.br || file.gzip) headers.push('vary', 'Accept-Encoding');
    if (matchesIfNoneMatch(req.headers['if-none-match'], file.etag)) return { status: 304, headers, body: null };
    const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gzip! : file.body;
    headers.push('content-type', file.type, 'content-length', String(body.length));
    if (encoding) headers.push('content-encoding', encoding);
    return { status: 200, headers, body: req.method === 'HEAD' ? null : body };
  }

  /**
   * The fast path in front of the framework: answers GET/HEAD of a known file straight on the socket.
   * Returns false (and touches nothing) for anything else, or before the common headers are known.
   */
  serve(req: IncomingMessage, res: ServerResponse, extra: string[]): boolean {
    if (this.commonHeaders === null || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const file = this.files.get(q === -1 ? url : url.slice(0, q));
    if (!file) return false;
    const headers: string[] = [];
    for (const [k, v] of this.commonFor(file)) headers.push(k, v);
    for (const h of extra) headers.push(h);
    const { status, body } = this.answer(file, req, headers);
    res.writeHead(status, headers);
    res.end(body ?? undefined);
    return true;
  }
}
