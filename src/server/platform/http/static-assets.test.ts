import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

const APP_JS = 'export const words = "what we owe the dead";\n'.repeat(200);
const STYLES = 'body { color: #ede5d5; background: #09080a; }\n'.repeat(100);

/** A built client with a precompressed script (as the build writes it) and a stylesheet without. */
function clientFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-static-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8" /><title>What We Owe the Dead</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js'), APP_JS);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js.br'), zlib.brotliCompressSync(APP_JS));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js.gz'), zlib.gzipSync(APP_JS));
  fs.writeFileSync(path.join(dir, 'assets', 'style-4d5e6f.css'), STYLES);
  fs.writeFileSync(path.join(dir, 'assets', 'pdf.worker.min-7a8b9c.mjs'), 'self.onmessage = () => {};');
  fs.writeFileSync(path.join(dir, 'cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 3"><rect width="2" height="3"/></svg>');
  return dir;
}

describe('static files', () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = clientFixture();
    t = await createTestApp({ clientDir: dir });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the precompressed form the build wrote, by Accept-Encoding, with its own strong ETag', async () => {
    const br = await fetch(`${base}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toBe(APP_JS); // fetch decodes it

    const gz = await fetch(`${base}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(APP_JS);

    const plain = await fetch(`${base}/assets/app-1a2b3c.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(APP_JS)));
    expect(await plain.text()).toBe(APP_JS);
    expect(new Set([br.headers.get('etag'), gz.headers.get('etag'), plain.headers.get('etag')]).size).toBe(3);
    expect(plain.headers.get('etag')).toMatch(/^"[\w-]+"$/);

    const again = await fetch(`${base}/assets/app-1a2b3c.js`, {
      headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('compresses once, after the start, a text file the build left without compressed forms', async () => {
    await t.app.staticAssets.compressMissing();
    const res = await fetch(`${base}/assets/style-4d5e6f.css`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toBe(STYLES);
  });

  it('carries the security headers that apply to it and a request id; HEAD has no body', async () => {
    const api = await fetch(`${base}/api/books/featured`);
    const [script, style, svg] = await Promise.all(
      ['/assets/app-1a2b3c.js', '/assets/style-4d5e6f.css', '/cover.svg'].map((p) => fetch(`${base}${p}`)),
    );
    // What protects any answer stays on every file.
    for (const file of [script, style, svg]) {
      for (const name of ['x-content-type-options', 'referrer-policy', 'cross-origin-resource-policy']) {
        expect(file.headers.get(name), name).toBeTruthy();
        expect(file.headers.get(name)).toBe(api.headers.get(name));
      }
      // Plain http: HSTS is for https answers only (security-headers.test.ts covers those).
      expect(file.headers.get('strict-transport-security')).toBeNull();
      expect(file.headers.get('x-request-id')).toMatch(/^[\w-]{8,64}$/);
    }
    expect(api.headers.get('strict-transport-security')).toBeNull();
    // A worker takes its policy from its script; an SVG opened on its own is a document whose scripts the
    // policy stops. A module a page imports runs under the page's policy and goes without.
    const worker = await fetch(`${base}/assets/pdf.worker.min-7a8b9c.mjs`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-security-policy')).toBe(api.headers.get('content-security-policy'));
    expect(svg.headers.get('content-security-policy')).toBe(api.headers.get('content-security-policy'));
    expect(script.headers.get('content-security-policy')).toBeNull();
    // Headers that only govern a document are not repeated on what a page loads.
    for (const name of ['permissions-policy', 'x-frame-options', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) {
      expect(api.headers.get(name), name).toBeTruthy();
      expect(script.headers.get(name), name).toBeNull();
      expect(style.headers.get(name), name).toBeNull();
      expect(svg.headers.get(name), name).toBeNull();
    }
    expect(style.headers.get('content-security-policy')).toBeNull();
    const head = await fetch(`${base}/assets/app-1a2b3c.js`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(APP_JS)));
    expect(await head.text()).toBe('');
  });

  it('does not serve the compressed siblings under their own names', async () => {
    const res = await fetch(`${base}/assets/app-1a2b3c.js.br`);
    expect(res.status).toBe(404);
  });
});
