import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpTransport } from '../../platform/mail/mail';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';
import { startSmtpCapture, type ReceivedMail, type SmtpCapture } from '../../test/smtp-capture';
import { parseResetLink, waitForOutbox } from './test-support';

describe('account mail over real SMTP', () => {
  let inbox: ReceivedMail[];
  let smtp: SmtpCapture;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    inbox = smtp.inbox;
    t = await createTestApp({
      seed: false,
      env: { PUBLIC_URL: 'http://127.0.0.1:4999' },
      mailTransport: smtpTransport(smtp.url),
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the reset link; following it resets the password; the change notice follows', async () => {
    const user = await createUser(t.database, { email: 'smtp-reader@example.com' });
    const res = await new TestAgent(t.app).post('/api/users/forgot-password', { email: 'SMTP-Reader@example.com' });
    expect(res.statusCode).toBe(200);
    await waitForOutbox(t.database.db, user.email, 'password-reset');
    expect(await t.app.deps.mailer.dispatchDue()).toBe(1);

    const mail = inbox.find((m) => m.to.includes(user.email))!;
    expect(mail.raw).toMatch(/Subject: Reset your What We Owe the Dead password/);
    const link = parseResetLink(mail.raw);
    expect(link.url.origin).toBe('http://127.0.0.1:4999');

    const reset = await new TestAgent(t.app).post('/api/users/reset-password', {
      email: link.email,
      token: link.token,
      newPassword: 'Mailed-Link-Works-9',
    });
    expect(reset.statusCode).toBe(200);
    expect(await t.app.deps.mailer.dispatchDue()).toBe(1);
    expect(inbox.at(-1)!.raw).toMatch(/Subject: Your What We Owe the Dead password was changed/);
    const login = await new TestAgent(t.app).post('/api/users/login', { username: user.email, password: 'Mailed-Link-Works-9' });
    expect(login.statusCode).toBe(200);
  });

  it('sends a password-changed notice after a change from the profile', async () => {
    const user = await createUser(t.database, { email: 'changer@example.com' });
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post(`/api/users/${user.id}/change-password`, {
      currentPassword: user.password,
      newPassword: 'Profile-Change-Works-3',
    });
    expect(res.statusCode).toBe(200);
    expect(await t.app.deps.mailer.dispatchDue()).toBe(1);
    const notice = inbox.at(-1)!;
    expect(notice.to).toEqual(['changer@example.com']);
    expect(notice.raw).toContain('Other devices signed in to your account have been signed out.');
  });
});
