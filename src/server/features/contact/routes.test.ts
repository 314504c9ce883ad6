import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, mailOutbox } from '../../db/schema';
import { createTestApp, TestAgent, type TestApp } from '../../test/helpers';

const valid = { name: 'Ada Reader', email: 'ada@example.com', subject: 'Book Club Appearance', message: 'Would you visit our club?' };

describe('POST /api/contact', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { AUTHOR_EMAIL: 'callum@example.com' } });
  });
  afterAll(async () => t.close());

  it('stores the message and queues a mail to the author before answering', async () => {
    const agent = new TestAgent(t.app);
    const res = await agent.post('/api/contact', valid, { headers: {} });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toEqual(expect.any(String));
    const rows = await t.database.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(valid);
    const mail = (await t.database.db.select().from(mailOutbox)).filter((m) => m.kind === 'contact');
    expect(mail).toHaveLength(1);
    expect(mail[0].to).toBe('callum@example.com');
    expect(mail[0].subject).toContain('Book Club Appearance');
    expect(mail[0].text).toContain('Would you visit our club?');
    expect(mail[0].headers).toMatchObject({ 'Reply-To': 'ada@example.com' });
  });

  it.each([
    [{ ...valid, name: '' }, 'name', 'Name is required'],
    [{ ...valid, email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ ...valid, subject: 'Free books' }, 'subject', 'Please choose a subject'],
    [{ ...valid, message: '   ' }, 'message', 'Message is required'],
  ])('rejects an invalid field (%#) with the error shape', async (body, field, message) => {
    const agent = new TestAgent(t.app);
    const res = await agent.request({ method: 'POST', url: '/api/contact', payload: body, remoteAddress: `10.1.0.${field.length}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message, fields: { [field]: message } });
  });

  it('refuses a request without the CSRF token', async () => {
    const res = await new TestAgent(t.app).post('/api/contact', valid, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_ERROR');
  });

  it('limits messages per IP with 429', async () => {
    const agent = new TestAgent(t.app);
    const send = () => agent.request({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress: '10.9.9.9' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await send()).statusCode);
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(statuses[5]).toBe(429);
    const limited = await send();
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another visitor is not affected.
    const other = await agent.request({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress: '10.9.9.10' });
    expect(other.statusCode).toBe(201);
  });
});
