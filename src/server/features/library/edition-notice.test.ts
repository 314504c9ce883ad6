import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { EDITION_NOTICE_MESSAGES } from '@shared/schemas/admin';
import { digitalAssets, editionNotices, mailOutbox, newsletterSubscribers } from '../../db/schema';
import type { MailTransport } from '../../platform/mail/mail';
import { createTestApp, createUser, signedInAgent, type TestAgent, type TestApp } from '../../test/helpers';
import { assetIdOf, featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';
import { makeTestEpub } from '../copies/test-support';
import { countOwners, runEditionNotice } from './edition-notice';

const BOUNDARY = '----editionNoticeBoundary';
/** A replacement upload: the form fields first, then the file (the order the files page sends them in). */
function multipart(fields: Record<string, string>, fileName: string, data: Buffer) {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/epub+zip\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe('new edition notice: "Tell owners about this edition" (decision 0091)', () => {
  let t: TestApp;
  let admin: TestAgent;
  let bookId: number;
  const delivered: string[] = [];
  const transport: MailTransport = {
    send: async (message) => {
      if (message.subject.startsWith('A new edition of ')) delivered.push(message.to);
    },
  };

  beforeAll(async () => {
    t = await createTestApp({ mailTransport: transport });
    bookId = await featuredBookId(t.app);
    const user = await createUser(t.database, { role: 'admin' });
    admin = await signedInAgent(t.app, user.id);
  });
  afterAll(() => t.close());

  const upload = (format: string, fields: Record<string, string>, body = 'the second edition') =>
    admin.request({
      method: 'PUT',
      url: `/api/admin/books/${bookId}/files/${format}`,
      payload: multipart(fields, 'second.epub', makeTestEpub({ body })),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
  const version = async (format = 'ebook') =>
    (await t.database.db.select({ v: digitalAssets.version }).from(digitalAssets).where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format))))[0]?.v;
  const notices = () => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'edition-notice'));
  const libraryRow = async (agent: TestAgent, format: string) =>
    ((await agent.get('/api/library/books')).json() as Array<{ format: string; bookId: number; updated?: boolean }>).find(
      (i) => i.format === format && i.bookId === bookId,
    );
  const download = (agent: TestAgent, assetId: number) => agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' });

  it('refuses a bad note or box, and an audiobook notice, before anything is stored', async () => {
    const before = await version();
    const long = await upload('ebook', { notifyOwners: 'true', note: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ message: EDITION_NOTICE_MESSAGES.noteLong, fields: { note: EDITION_NOTICE_MESSAGES.noteLong } });
    const box = await upload('ebook', { notifyOwners: 'maybe' });
    expect(box.statusCode).toBe(400);
    expect(box.json().message).toBe(EDITION_NOTICE_MESSAGES.notify);
    const audio = await upload('audiobook', { notifyOwners: 'true', note: 'New narration' });
    expect(audio.statusCode).toBe(400);
    expect(audio.json().message).toBe(EDITION_NOTICE_MESSAGES.formatOnly);
    expect(await version()).toBe(before);
    expect(await notices()).toHaveLength(0);
  });

  it('with the box unchecked, a replacement tells nobody and grants nothing', async () => {
    const owner = await newBuyer(t, bookId, ['ebook']);
    const before = await version();
    const res = await upload('ebook', { notifyOwners: 'false', note: 'Not sent' });
    expect(res.statusCode).toBe(200);
    expect(res.json().version).not.toBe(before);
    expect(res.json()).not.toHaveProperty('ownersNotified');
    const plain = await upload('ebook', {});
    expect(plain.statusCode).toBe(200);
    await t.app.deps.jobs.runDue(20);
    expect(await notices()).toHaveLength(0);
    expect(await t.database.db.select().from(editionNotices)).toHaveLength(0);
    expect(await libraryRow(owner.agent, 'ebook')).toMatchObject({ updated: false });
    expect((await purchaseOf(t, owner.user.id)).maxDownloads).toBe(1);
  });

  it('mails the owners of that format only, grants each one download of the new version, and marks it "Updated" until downloaded', async () => {
    const ebookAsset = await assetIdOf(t, bookId, 'ebook');
    const spent = await newBuyer(t, bookId, ['ebook']);
    expect((await download(spent.agent, ebookAsset)).statusCode).toBe(200);
    expect((await download(spent.agent, ebookAsset)).statusCode).toBe(403);
    const unspent = await newBuyer(t, bookId, ['ebook']);
    const listener = await newBuyer(t, bookId, ['audiobook']);
    const complained = await newBuyer(t, bookId, ['ebook']);
    const left = await newBuyer(t, bookId, ['ebook']);
    await t.database.db.insert(newsletterSubscribers).values([
      { email: complained.user.email, state: 'complained', source: 'import' },
      { email: left.user.email, state: 'unsubscribed', source: 'import', unsubscribedAt: t.clock.now() },
    ]);

    const owners = await countOwners(t.database.db, bookId, 'ebook');
    const res = await upload('ebook', { notifyOwners: 'true', note: 'Chapter 12 has a new ending.\n\nThank you for reading.' });
    expect(res.statusCode).toBe(200);
    const newVersion = res.json().version;
    expect(res.json().ownersNotified).toBe(owners);
    await t.app.deps.jobs.runDue(20);

    const mails = await notices();
    expect(mails).toHaveLength(owners);
    const to = mails.map((m) => m.to);
    for (const reader of [spent, unspent, complained, left]) expect(to).toContain(reader.user.email);
    expect(to).not.toContain(listener.user.email);
    const mail = mails.find((m) => m.to === spent.user.email)!;
    expect(mail.subject).toMatch(/^A new edition of .+ \(E-Book\)$/);
    expect(mail.text).toContain('One download of the new version is waiting in your library:');
    expect(mail.text).toContain('A note from the author:\nChapter 12 has a new ending.\n\nThank you for reading.');

    // Spent: given back, as a granted download is. Unspent: still one (it already leads to the new file). Audiobook: untouched.
    expect(await purchaseOf(t, spent.user.id)).toMatchObject({ downloadCount: 0, maxDownloads: 1, downloadUsed: false });
    expect(await purchaseOf(t, unspent.user.id)).toMatchObject({ downloadCount: 0, maxDownloads: 1 });
    expect(await purchaseOf(t, listener.user.id, 'audiobook')).toMatchObject({ maxDownloads: 1 });

    expect(await libraryRow(spent.agent, 'ebook')).toMatchObject({ updated: true });
    expect(await libraryRow(listener.agent, 'audiobook')).toMatchObject({ updated: false });
    expect((await download(spent.agent, ebookAsset)).statusCode).toBe(200);
    expect(await libraryRow(spent.agent, 'ebook')).toMatchObject({ updated: false });
    expect((await download(spent.agent, ebookAsset)).statusCode).toBe(403);

    // A complaint keeps the mail from going (the download and the mark stay); leaving the newsletter does not.
    while ((await t.app.deps.mailer.dispatchDue(100)) > 0);
    expect(delivered).toContain(left.user.email);
    expect(delivered).not.toContain(complained.user.email);
    expect(delivered).toHaveLength(owners - 1);
    const [held] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'edition-notice'), eq(mailOutbox.to, complained.user.email)));
    expect(held.status).toBe('suppressed');
    expect(await libraryRow(complained.agent, 'ebook')).toMatchObject({ updated: true });

    // A run again (a job taken over after a crash) tells nobody twice and grants nothing more.
    expect(await runEditionNotice(t.app.deps, { bookId, format: 'ebook', version: newVersion, note: '' })).toEqual({ told: 0 });
    expect(await notices()).toHaveLength(owners);
    expect(await purchaseOf(t, spent.user.id)).toMatchObject({ downloadCount: 1, maxDownloads: 1 });
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(editionNotices);
    expect(Number(n)).toBe(owners);
  });
});
