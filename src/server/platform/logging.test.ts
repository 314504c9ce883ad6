import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLogger, loggableUrl } from '../app';
import { createTestApp, type TestApp } from '../test/helpers';

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
    t = await createTestApp({ logger: defaultLogger('info', stream) });
  });
  afterAll(async () => t.close());

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

  it('writes one line per request: request id, method, path, route, status and time', async () => {
    await t.app.inject({ url: '/api/books/424242?draft=1', headers: { 'x-request-id': 'trace-0001-abcd' } });
    const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'trace-0001-abcd');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/api/books/424242',
      route: '/api/books/:id',
      statusCode: 404,
    });
    expect(typeof mine[0].responseTime).toBe('number');
  });

  it('keeps the path of ordinary URLs', () => {
    expect(loggableUrl('/api/books/3?x=1')).toBe('/api/books/3');
  });
});
