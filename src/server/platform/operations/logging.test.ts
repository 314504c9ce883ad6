import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { defaultLogger, loggableUrl } from '../../app';
import { AccessLogWriter, assertTokenRouteRedacted, requestIdFrom } from './logging';
import { trustedProxyCheck } from '../security/security';
import { createTestApp, createUser, type TestApp } from '../../test/helpers';
import { SQLSTATE } from '../../test/sqlstate';
import { sqlState } from '../storage/db-errors';

describe('request logs', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // Behind a proxy on this host: its X-Request-Id is kept, so a test can find its own line.
    t = await createTestApp({ logger: defaultLogger('info', stream), env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => t.close());
  /** Each chunk the destination received may hold several lines: one JSON object per line. */
  const parsedLines = () =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('never contain the secrets carried in URLs', async () => {
    await t.app.inject({ url: '/reset-password?token=SECRET-RESET-TOKEN&email=reader%40example.com' });
    await t.app.inject({ url: '/files/download/SECRET-DOWNLOAD-TOKEN' });
    await t.app.inject({ url: '/api/newsletter/unsubscribe?email=a%40b.co&token=SECRET-UNSUB' });
    await t.app.inject({ url: '/api/books', headers: { authorization: 'Bearer SECRET-BEARER', cookie: 'sid=SECRET-COOKIE' } });
    const log = lines.join('');
    expect(log).toContain('/reset-password');
    expect(log).toContain('/files/download/[redacted]');
    for (const secret of ['SECRET-RESET-TOKEN', 'reader%40example.com', 'SECRET-DOWNLOAD-TOKEN', 'SECRET-UNSUB', 'SECRET-BEARER', 'SECRET-COOKIE']) {
      expect(log).not.toContain(secret);
    }
  });

  it('mask the token of a gift link and of the gift API, however the path is spelled', async () => {
    const before = lines.length;
    await t.app.inject({ url: '/gift/SECRET-GIFT-PAGE' });
    await t.app.inject({ url: '/gift/SECRET-GIFT-SLASH/' });
    await t.app.inject({ url: '/api/gifts/SECRET-GIFT-VIEW' });
    await t.app.inject({ url: '/api/%67ifts/SECRET-GIFT-ESCAPED' });
    await t.app.inject({ method: 'POST', url: '/api/gifts/SECRET-GIFT-CLAIM/claim', payload: {} });
    await new Promise((resolve) => setImmediate(resolve));
    const log = lines.slice(before).join('');
    for (const secret of ['SECRET-GIFT-PAGE', 'SECRET-GIFT-SLASH', 'SECRET-GIFT-VIEW', 'SECRET-GIFT-ESCAPED', 'SECRET-GIFT-CLAIM']) {
      expect(log).not.toContain(secret);
    }
    const urls = parsedLines().map((l) => l.url);
    expect(urls).toContain('/gift/[redacted]');
    expect(urls).toContain('/gift/[redacted]/');
    expect(urls).toContain('/api/gifts/[redacted]');
    expect(urls).toContain('/api/%67ifts/[redacted]');
    expect(urls).toContain('/api/gifts/[redacted]/claim');
  });

  it('mask only the token segment of the routes that carry one', () => {
    expect(loggableUrl('/files/download/abc.def?x=1')).toBe('/files/download/[redacted]');
    expect(loggableUrl('/api/gifts/abc/claim')).toBe('/api/gifts/[redacted]/claim');
    expect(loggableUrl('/api/gifts/abc/other')).toBe('/api/gifts/abc/other');
    expect(loggableUrl('/gifts/abc')).toBe('/gifts/abc');
    expect(loggableUrl('/api/orders/gifts/12/resend')).toBe('/api/orders/gifts/12/resend');
  });

  it('refuse a route with a token in its path that the logs would show', () => {
    expect(() => assertTokenRouteRedacted('/api/gifts/:token/claim')).not.toThrow();
    expect(() => assertTokenRouteRedacted('/api/books/:id')).not.toThrow();
    expect(() => assertTokenRouteRedacted('/api/invites/:token')).toThrow(
      'Route /api/invites/:token carries a token in its path: add it to SECRET_PATH_ROUTES so logs mask it',
    );
  });

  it('never contain the values of a failed query, only its SQL', async () => {
    const secret = 'hidden.reader@example.com';
    const failed = await t.database.db.execute(sql`select ${secret}::int as n`).catch((error: unknown) => error);
    const reader = await createUser(t.database, { email: 'taken.reader@example.com' });
    const duplicate = await t.database.db
      .insert(users)
      .values({ username: 'other-reader', email: reader.email, displayName: 'x', passwordHash: 'ARGON-HASH-SECRET', role: 'user' })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(sqlState(failed)).toMatchObject({ code: SQLSTATE.invalidTextRepresentation });
    expect(duplicate).toBeInstanceOf(Error);
    expect(sqlState(duplicate)).toEqual({ code: SQLSTATE.uniqueViolation, constraint: 'users_email_lower_uq' });
    const before = lines.length;
    t.app.log.error({ err: failed }, 'unhandled error');
    t.app.log.error({ err: duplicate }, 'unhandled error');
    const log = lines.slice(before).join('');
    expect(log).toContain('Failed query: select $1::int as n');
    expect(log).toContain('insert into \\"users\\"');
    for (const value of [secret, 'taken.reader@example.com', 'ARGON-HASH-SECRET', 'other-reader']) expect(log).not.toContain(value);
  });

  it('writes one line per request: request id, method, path, route, status and time', async () => {
    await t.app.inject({ url: '/api/books/424242?draft=1', headers: { 'x-request-id': 'trace-0001-abcd' } });
    await new Promise((resolve) => setImmediate(resolve));
    const mine = parsedLines().filter((l) => l.reqId === 'trace-0001-abcd');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/api/books/424242',
      route: '/api/books/:id',
      statusCode: 404,
      pid: process.pid,
      remoteAddress: '127.0.0.1',
    });
    expect(typeof mine[0].responseTime).toBe('number');
    expect(typeof mine[0].time).toBe('number');
    expect(typeof mine[0].hostname).toBe('string');
  });

  it('hands the lines of requests completed in one turn of the event loop to the destination together', async () => {
    const chunks: string[] = [];
    const writer = new AccessLogWriter({ write: (chunk: string) => chunks.push(chunk) });
    const ids = Array.from({ length: 5 }, (_, i) => `batch-000${i}-abcd`);
    for (const reqId of ids) writer.write({ reqId, method: 'GET', url: '/api/books', route: '/api/books', statusCode: 200, responseTime: 0.4 });
    expect(chunks).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toHaveLength(1);
    const mine = chunks[0].split('\n').filter(Boolean).map((l) => JSON.parse(l) as { reqId: string });
    expect(mine.map((l) => l.reqId)).toEqual(ids);
    writer.close();
  });

  it('escapes what the caller sent, so every line stays one JSON object', async () => {
    const chunks: string[] = [];
    const writer = new AccessLogWriter({ write: (chunk: string) => chunks.push(chunk) });
    const url = '/blog/"},"statusCode":200}\n{"forged":"\\ \u2028 é';
    writer.write({ reqId: 'escape-0001', method: 'GET', url, route: null, statusCode: 404, responseTime: 1.5, remoteAddress: '::1' });
    writer.close();
    const written = chunks.join('').split('\n').filter(Boolean);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0])).toMatchObject({ reqId: 'escape-0001', url, route: null, statusCode: 404, responseTime: 1.5, remoteAddress: '::1' });
  });

  it('writes lines still pending when the app closes', async () => {
    const own: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        own.push(chunk.toString());
        done();
      },
    });
    const other = await createTestApp({ logger: defaultLogger('info', stream), env: { TRUST_PROXY: 'loopback' } });
    await other.app.inject({ url: '/api/books/424242', headers: { 'x-request-id': 'closing-0001-abcd' } });
    await other.close();
    expect(own.join('')).toContain('"reqId":"closing-0001-abcd"');
  });

  it('keeps the path of ordinary URLs', () => {
    expect(loggableUrl('/api/books/3?x=1')).toBe('/api/books/3');
  });
});

describe('request ids', () => {
  // No TRUST_PROXY: the header is the client's own and is not taken.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => t.close());

  it("keep a trusted proxy's X-Request-Id and give anyone else's request a fresh one", async () => {
    const res = await t.app.inject({ url: '/api/books', headers: { 'x-request-id': 'chosen-0001-abcd' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const from = (remoteAddress: string) => ({ socket: { remoteAddress } }) as unknown as IncomingMessage;
    expect(requestIdFrom('chosen-0001-abcd', trustedProxyCheck('10.0.0.0/8')(from('127.0.0.1')))).not.toBe('chosen-0001-abcd');
    expect(requestIdFrom('chosen-0001-abcd', trustedProxyCheck('10.0.0.0/8')(from('10.1.2.3')))).toBe('chosen-0001-abcd');
    expect(requestIdFrom('chosen-0001-abcd', trustedProxyCheck('loopback')(from('::ffff:127.0.0.1')))).toBe('chosen-0001-abcd');
    expect(requestIdFrom('not an id', true)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
