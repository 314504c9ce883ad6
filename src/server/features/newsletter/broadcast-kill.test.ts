import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/security/crypto';
import { smtpTransport } from '../../platform/mail/mail';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { PARALLEL_SENDERS } from './broadcast-delivery';
import { headerOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { confirmedSubscribers } from './broadcast-test-support';
import { freePort } from '../../test/ports';

/** The issue asks for 5,000; the default keeps the suite's time in bounds on a shared machine. */
const LIST = Number(process.env.BROADCAST_KILL_LIST ?? 1_000);
/** Time to finish after the kill: generous for a loaded machine. */
const FINISH_MS = 120_000 + LIST * 100;


/**
 * Two instances send one broadcast on PostgreSQL; one of them, a real server process, is killed with SIGKILL in
 * the middle. Nobody is skipped, and the capture server counts the copies: the only second copy possible is
 * the one message the killed process may have had accepted by the mail server and not yet recorded.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a broadcast survives a killed instance (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let smtp: SmtpCapture;
  let t: TestApp;
  let stop: (() => Promise<void>) | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-broadcast-kill-'));

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    database = await createTestDatabase({ poolSize: 10 });
    t = await createTestApp({ seed: false, database, mailTransport: smtpTransport(smtp.url), clock: systemClock, env: { MAIL_POLL_MS: '200' } });
    await confirmedSubscribers(database.db, 'kill', LIST);
  }, 60_000);
  afterAll(async () => {
    await stop?.();
    await t.close();
    await database.drop();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every address receives its copy once, however the other instance dies', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url!,
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: '200',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      const deadlineUp = Date.now() + 60_000;
      for (;;) {
        const up = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
        if (up) break;
        if (Date.now() > deadlineUp) throw new Error('the second instance did not start');
        await new Promise((r) => setTimeout(r, 250));
      }
      const { agent } = await adminAgent(t);
      const created = await agent.post('/api/admin/broadcasts', { subject: 'Killed midway', previewText: '', body: '<p>Once each.</p>', audience: { kind: 'all' } });
      // Only the other instance runs jobs at first, so it lists, hands off and sends when it is killed.
      expect((await agent.post(`/api/admin/broadcasts/${created.json().id}/send`, {})).statusCode).toBe(200);
      const killAt = Math.floor(LIST / 3);
      while (smtp.inbox.length < killAt) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGKILL');
      await exited;
      const atKill = smtp.inbox.length;
      expect(atKill).toBeLessThan(LIST);

      // This instance takes over: the send job after its lease, each claimed mail after its own.
      await t.app.deps.jobs.ensureRecurring();
      stop = t.app.deps.jobs.start(200);
      const deadline = Date.now() + FINISH_MS;
      while (new Set(smtp.inbox.map((m) => m.to[0])).size < LIST && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      // The send job itself is taken over once the killed process's lease on it ends; once the broadcast is
      // over and this instance's runner has stopped after its runs in flight, no copy is still to come.
      const read = async () => (await agent.get(`/api/admin/broadcasts/${created.json().id}`)).json();
      while ((await read()).status !== 'sent' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      await stop();
      stop = null;

      // Per address: how many copies arrived, and under how many distinct Message-IDs.
      const perAddress = new Map<string, { copies: number; ids: Set<string> }>();
      for (const m of smtp.inbox.filter((mail) => headerOf(mail, 'Subject') === 'Killed midway')) {
        const seen = perAddress.get(m.to[0]) ?? { copies: 0, ids: new Set<string>() };
        seen.copies += 1;
        seen.ids.add(headerOf(m, 'Message-ID') ?? '');
        perAddress.set(m.to[0], seen);
      }
      expect(perAddress.size).toBe(LIST);
      // Every address got one message: a second copy is only ever the same message sent again (one outbox row).
      expect([...perAddress.values()].filter((s) => s.ids.size !== 1)).toEqual([]);
      const extra = [...perAddress.values()].reduce((sum, s) => sum + s.copies - 1, 0);
      console.info(`broadcast-kill: ${LIST} addresses, ${atKill} mailed before the kill, ${extra} second copies`);
      // A second copy needs a send the mail server accepted and the killed process had not yet recorded: at
      // most one per mail the killed instance had in flight (its parallel senders and its mail-dispatch run).
      expect(extra).toBeLessThanOrEqual(PARALLEL_SENDERS + 1);
      const after = await read();
      expect(after).toMatchObject({ status: 'sent', counts: { recipients: LIST, waiting: 0, failed: 0 } });
      expect(smtp.errors).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, FINISH_MS + 180_000);
});
