import { describe, expect, it } from 'vitest';
import { checkSmtp, StartAbort, reasonOf, waitForService, whereIs } from './start-checks';

describe('start checks', () => {
  it('names a service by host and port, never by its credentials', () => {
    expect(whereIs('postgres://site:secret@db.internal:5432/site')).toBe('db.internal:5432');
    expect(whereIs('redis://:secret@redis')).toBe('redis');
    expect(whereIs('not a url')).toBe('an unreadable address');
  });

  it('gives the short cause of a failure', () => {
    expect(reasonOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(reasonOf(Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' }))).toBe(
      'ECONNREFUSED',
    );
    expect(reasonOf(Object.assign(new Error('database "x" does not exist'), { code: '3D000' }))).toBe(
      '3D000 database "x" does not exist',
    );
    expect(reasonOf(new AggregateError([Object.assign(new Error(''), { code: 'ECONNREFUSED' })], ''))).toBe('ECONNREFUSED');
    expect(reasonOf(Object.assign(new Error('UnknownError'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } }))).toBe(
      'HTTP 404 NotFound',
    );
  });

  it('retries until the service answers, saying so once when it fails and once when it is back', async () => {
    const said: string[] = [];
    let calls = 0;
    await waitForService(
      async () => {
        calls += 1;
        if (calls < 3) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
      },
      { service: 'PostgreSQL at db:5432', waitMs: 5000, say: (line) => said.push(line), firstDelayMs: 10 },
    );
    expect(calls).toBe(3);
    expect(said).toEqual(['PostgreSQL at db:5432 unavailable (ECONNREFUSED): retrying for up to 5 s', 'PostgreSQL at db:5432 answered after 0 s']);
  });

  it('gives up after waitMs with one line, and at once on a failure no retry can mend', async () => {
    const refused = async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    };
    const started = Date.now();
    const timedOut = waitForService(refused, { service: 'S3 bucket b at s3:9000', waitMs: 300, say: () => undefined, firstDelayMs: 50 });
    await expect(timedOut).rejects.toThrow(new StartAbort('S3 bucket b at s3:9000 unavailable for 0 s (ECONNREFUSED): exiting'));
    expect(Date.now() - started).toBeLessThan(1000);

    const said: string[] = [];
    const permanent = waitForService(
      async () => {
        throw Object.assign(new Error('password authentication failed for user "site"'), { code: '28P01' });
      },
      { service: 'PostgreSQL at db:5432', waitMs: 60_000, say: (line) => said.push(line), isPermanent: () => true },
    );
    await expect(permanent).rejects.toThrow(
      'PostgreSQL at db:5432 refused the start (28P01 password authentication failed for user "site"): exiting',
    );
    expect(said).toEqual([]);
  });

  it('reports an SMTP server that refuses the sign-in in one line, and never throws', async () => {
    const said: string[] = [];
    const refused = async () => {
      throw Object.assign(new Error('Invalid login: 535 Authentication failed'), { code: 'EAUTH' });
    };
    await checkSmtp(refused, 'smtp://user:secret@mail.example.com:587', (line) => said.push(line));
    expect(said).toEqual([
      'SMTP at mail.example.com:587 unavailable (EAUTH Invalid login: 535 Authentication failed): mail waits in the outbox and is sent once it answers',
    ]);
    await checkSmtp(async () => true, 'smtp://mail.example.com:587', (line) => said.push(line));
    expect(said).toHaveLength(1);
  });
});
