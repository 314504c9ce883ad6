import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { httpsDetector } from '../security/security';

/** Pages, API reads, a public read the front door repeats, and a static file answered before the app. */
const PATHS = ['/', '/api/books/featured', '/api/books', '/api/books', '/assets/app-abc123.js'];

async function listening(env: Record<string, string>) {
  const t = await createTestApp({ env: { SITE_CACHE_MS: '600000', ...env } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return t;
}

async function served(t: TestApp, headers: Record<string, string> = {}) {
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const answers = [];
  for (const path of PATHS) {
    const res = await fetch(`${base}${path}`, { headers });
    expect(res.status, path).toBe(200);
    answers.push({ path, hsts: res.headers.get('strict-transport-security'), permissions: res.headers.get('permissions-policy') });
  }
  return answers;
}

/** Headers that describe one answer rather than every answer of the app. */
const PER_ANSWER = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'etag', 'last-modified', 'cache-control', 'vary', 'date', 'connection', 'keep-alive', 'x-request-id', 'accept-ranges', 'set-cookie']);

describe('HSTS and Permissions-Policy', () => {
  describe('without a trusted proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await listening({});
    });
    afterAll(async () => t.close());

    it('plain http answers carry no HSTS, even when the client claims https; pages and API answers have the Permissions-Policy', async () => {
      for (const answer of [...(await served(t)), ...(await served(t, { 'x-forwarded-proto': 'https' }))]) {
        expect(answer.hsts, answer.path).toBeNull();
        // A script a page loads is governed by the page's policy, so it does not repeat it (decision 0023).
        if (answer.path.startsWith('/assets/')) expect(answer.permissions, answer.path).toBeNull();
        else expect(answer.permissions, answer.path).toContain('camera=()');
      }
      // The front door really answered the repeated public read and the static file.
      expect(t.app.frontDoor.remembered.has('/api/books')).toBe(true);
    });

    it('the front door sends the headers the framework sends on every answer, from the same list', async () => {
      const common = t.app.staticAssets.common();
      expect(common.map(([name]) => name)).toContain('Content-Security-Policy');
      const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
      for (const path of ['/', '/api/books/featured']) {
        const framework = Object.fromEntries((await fetch(`${base}${path}`)).headers);
        // Everything but the headers that describe this one answer is in the list, with the same value.
        const everyAnswer = Object.keys(framework).filter((name) => !PER_ANSWER.has(name));
        expect(everyAnswer.sort(), path).toEqual(common.map(([name]) => name.toLowerCase()).sort());
        for (const [name, value] of common) expect(framework[name.toLowerCase()], `${path} ${name}`).toBe(value);
      }
    });

    it('turns off what the site never uses and keeps what it does', async () => {
      const policy = (await t.app.inject({ url: '/' })).headers['permissions-policy'] as string;
      for (const off of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture']) expect(policy).toContain(`${off}=()`);
      // The trailer plays in a YouTube frame, full screen allowed.
      expect(policy).toContain('fullscreen=(self "https://www.youtube-nocookie.com")');
      expect(policy).toContain('autoplay=(self "https://www.youtube-nocookie.com")');
    });
  });

  describe('behind a trusted proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await listening({ TRUST_PROXY: 'loopback' });
    });
    afterAll(async () => t.close());

    it('answers to https requests carry HSTS on every path; plain http ones do not', async () => {
      for (const answer of await served(t, { 'x-forwarded-proto': 'https' })) {
        expect(answer.hsts, answer.path).toBe('max-age=31536000; includeSubDomains');
      }
      expect(t.app.frontDoor.remembered.has('/api/books')).toBe(true);
      for (const answer of await served(t, { 'x-forwarded-proto': 'http' })) expect(answer.hsts, answer.path).toBeNull();
      for (const answer of await served(t)) expect(answer.hsts, answer.path).toBeNull();
    });
  });

  it('trusts the forwarded protocol only from the proxies TRUST_PROXY names', () => {
    const request = (remoteAddress: string, proto?: string, encrypted = false) =>
      ({ socket: { remoteAddress, encrypted }, headers: proto ? { 'x-forwarded-proto': proto } : {} }) as unknown as IncomingMessage;
    expect(httpsDetector(false)(request('10.0.0.1', 'https'))).toBe(false);
    expect(httpsDetector(false)(request('10.0.0.1', undefined, true))).toBe(true);
    expect(httpsDetector(true)(request('203.0.113.9', 'https'))).toBe(true);
    expect(httpsDetector(1)(request('203.0.113.9', 'https'))).toBe(true);
    expect(httpsDetector(0)(request('203.0.113.9', 'https'))).toBe(false);
    const ranges = httpsDetector('10.0.0.0/8, 192.168.1.7, uniquelocal');
    expect(ranges(request('10.2.3.4', 'https'))).toBe(true);
    expect(ranges(request('::ffff:10.2.3.4', 'https'))).toBe(true);
    expect(ranges(request('192.168.1.7', 'https'))).toBe(true);
    expect(ranges(request('203.0.113.9', 'https'))).toBe(false);
    // The last value is the one our own proxy wrote.
    expect(ranges(request('10.2.3.4', 'https, http'))).toBe(false);
    expect(ranges(request('10.2.3.4', 'http, https'))).toBe(true);
  });
});
