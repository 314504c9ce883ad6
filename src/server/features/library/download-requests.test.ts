import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_REQUEST_MESSAGES } from '@shared/schemas/download-requests';
import { auditLog, mailOutbox } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { assetIdOf, featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';

describe('the one download: resume from the library row, "Need another download?" and the grant', () => {
  let t: TestApp;
  let bookId: number;
  let ebookAssetId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com', AUTHOR_EMAIL: 'author@example.com' } });
    bookId = await featuredBookId(t.app);
    ebookAssetId = await assetIdOf(t, bookId, 'ebook');
  });
  afterAll(() => t.close());

  const libraryRow = async (agent: TestAgent) => (await agent.get('/api/library/books')).json()[0];
  const mailsTo = (to: string, kind: string) =>
    t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));

  it('an interrupted transfer is resumed from the same row while its link lives; a finished one is "used"', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const row = await libraryRow(reader.agent);
    expect(row).toMatchObject({ downloadUsed: false, resumeUntil: null, downloadRequest: null });
    // Nothing to resume before the download is spent.
    const early = await reader.agent.post(`/api/library/downloads/${row.id}/resume`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(DOWNLOAD_REQUEST_MESSAGES.noOpenLink);

    const link = await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' });
    expect(link.statusCode, link.body).toBe(200);
    // The browser's transfer breaks off after 100 bytes.
    const part = await t.app.inject({ url: link.json().downloadUrl, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);

    const open = await libraryRow(reader.agent);
    expect(open.downloadUsed).toBe(true);
    expect(new Date(open.resumeUntil).getTime()).toBe(t.clock.now().getTime() + 10 * 60_000);
    // Asking for another download while this one is open is refused: resume it instead.
    const tooSoon = await reader.agent.post('/api/library/download-requests', { purchaseId: open.id });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().message).toBe(DOWNLOAD_REQUEST_MESSAGES.stillOpen);

    const resumed = await reader.agent.post(`/api/library/downloads/${open.id}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ success: true, downloadUrl: link.json().downloadUrl, fileName: link.json().fileName });
    // Someone else cannot get the reader's link.
    const stranger = await newBuyer(t, bookId, ['audiobook']);
    expect((await stranger.agent.post(`/api/library/downloads/${open.id}/resume`)).statusCode).toBe(403);

    const rest = await t.app.inject({ url: resumed.json().downloadUrl, headers: { range: 'bytes=0-', 'if-range': part.headers.etag as string } });
    expect(rest.statusCode).toBe(206);
    await expect.poll(async () => (await libraryRow(reader.agent)).resumeUntil).toBeNull();
    expect((await reader.agent.post(`/api/library/downloads/${open.id}/resume`)).statusCode).toBe(409);
    // Nothing was spent twice.
    expect(await purchaseOf(t, reader.user.id, 'ebook')).toMatchObject({ downloadCount: 1 });
  });

  it('a link that expired unfinished is not offered again', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const link = await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' });
    expect(link.statusCode).toBe(200);
    t.clock.advance(10 * 60_000 + 1);
    const agent = await (await import('../../test/helpers')).signedInAgent(t.app, reader.user.id);
    const row = await libraryRow(agent);
    expect(row).toMatchObject({ downloadUsed: true, resumeUntil: null });
    expect((await agent.post(`/api/library/downloads/${row.id}/resume`)).statusCode).toBe(409);
  });

  it('"Need another download?" sends the author one request per format; the admin grants it in one click and the reader is mailed', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const row = await libraryRow(reader.agent);
    // Not before the one download is used.
    const unused = await reader.agent.post('/api/library/download-requests', { purchaseId: row.id });
    expect(unused.statusCode).toBe(409);
    expect(unused.json().message).toBe(DOWNLOAD_REQUEST_MESSAGES.notUsed);
    const link = await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' });
    expect((await t.app.inject({ url: link.json().downloadUrl })).statusCode).toBe(200);

    // Bad input changes nothing; someone else's row is refused.
    expect((await reader.agent.post('/api/library/download-requests', { purchaseId: 'x' })).statusCode).toBe(400);
    const stranger = await newBuyer(t, bookId, ['audiobook']);
    const foreign = await stranger.agent.post('/api/library/download-requests', { purchaseId: row.id });
    expect(foreign.statusCode).toBe(403);

    const asked = await reader.agent.post('/api/library/download-requests', { purchaseId: row.id });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ success: true, message: DOWNLOAD_REQUEST_MESSAGES.sent, request: { status: 'pending', grantedAt: null } });
    const again = await reader.agent.post('/api/library/download-requests', { purchaseId: row.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(DOWNLOAD_REQUEST_MESSAGES.alreadyPending);
    expect((await libraryRow(reader.agent)).downloadRequest).toBe('pending');

    const [authorMail] = await mailsTo('author@example.com', 'download-request');
    expect(authorMail.subject).toBe('Download request: What We Owe the Dead (E-Book)');
    expect(authorMail.text).toContain(reader.user.email);
    expect(authorMail.text).toContain('https://shop.example.com/admin/orders');

    // Readers cannot see or grant requests.
    expect((await reader.agent.get('/api/admin/download-requests')).statusCode).toBe(403);
    expect((await reader.agent.post(`/api/admin/download-requests/${asked.json().request.id}/grant`)).statusCode).toBe(403);

    const { agent: admin, admin: adminUser } = await adminAgent(t);
    const list = (await admin.get('/api/admin/download-requests')).json().requests;
    const mine = list.find((r: { id: number }) => r.id === asked.json().request.id);
    expect(mine).toMatchObject({ status: 'pending', format: 'ebook', purchaseId: row.id, book: { id: bookId }, reader: { id: reader.user.id, email: reader.user.email } });

    const granted = await admin.post(`/api/admin/download-requests/${mine.id}/grant`);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ id: mine.id, status: 'granted' });
    expect((await admin.post(`/api/admin/download-requests/${mine.id}/grant`)).statusCode).toBe(409);
    expect((await admin.post('/api/admin/download-requests/999999/grant')).statusCode).toBe(404);

    const after = await libraryRow(reader.agent);
    expect(after).toMatchObject({ downloadUsed: false, downloadCount: 0, downloadRequest: null });
    const [readerMail] = await mailsTo(reader.user.email, 'download-granted');
    expect(readerMail.subject).toBe('Your E-Book of What We Owe the Dead can be downloaded again');
    expect(readerMail.text).toContain('https://shop.example.com/profile#library');
    const [entry] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'download-request.grant'), eq(auditLog.actorId, adminUser.id)));
    expect(entry.targetId).toBe(String(row.id));

    // The download given back works once, like the first.
    expect((await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' })).statusCode).toBe(200);
    expect((await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' })).statusCode).toBe(403);
  });

  it('parallel requests for the same format leave exactly one pending', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const row = await libraryRow(reader.agent);
    const link = await reader.agent.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' });
    expect((await t.app.inject({ url: link.json().downloadUrl })).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => reader.agent.post('/api/library/download-requests', { purchaseId: row.id })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });
});
