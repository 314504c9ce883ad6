import type { AuditEntry } from '@shared/schemas/admin';
import { describeAuditEntry } from './describe';

const entry = (action: string, targetId: string | null, details: unknown): AuditEntry => ({
  id: 1,
  actor: 'author',
  action,
  targetType: null,
  targetId,
  details,
  createdAt: '2026-11-20T10:00:00.000Z',
});
const titles = new Map([[3, 'What We Owe the Dead']]);

describe('recent changes in words', () => {
  it.each([
    [entry('settings.update', 'site.content', { changed: [] }), 'Site content updated'],
    [entry('settings.update', 'site.content', { changed: ['authorBio', 'teaserVideoId'] }), 'Site content updated (author bio, teaser video)'],
    [entry('book.update', '3', { changed: { tagline: 'New' } }), 'Book "What We Owe the Dead" edited'],
    [entry('book.update', '9', { changed: { title: 'The Quiet Inheritance' } }), 'Book "The Quiet Inheritance" edited'],
    [entry('book.update', '9', { changed: {} }), 'Book #9 edited'],
    [entry('book.create', '9', { title: 'The Quiet Inheritance' }), 'Book "The Quiet Inheritance" added'],
    [entry('post.create', '4', { slug: 'on-writing-brothers', isPublished: true }), 'Blog post "on-writing-brothers" written (published)'],
    [entry('post.update', '4', { slug: 'notes', isPublished: false }), 'Blog post "notes" edited (draft)'],
    [entry('file.replace', '2', { bookId: 3, format: 'ebook', version: '2.0' }), 'E-Book file replaced for "What We Owe the Dead" (now version 2.0)'],
    [entry('file.upload', '5', { bookId: 3, format: 'pdf' }), 'PDF file uploaded for "What We Owe the Dead"'],
    [entry('order.ship', '12', { orderReference: 'WWOTD-7Q2K' }), 'Order WWOTD-7Q2K marked shipped'],
    [entry('order.reset-download', '12', { format: 'audiobook' }), 'Audiobook download given back (order #12)'],
    [entry('subscribers.export', null, { rows: 1 }), 'Subscriber list exported (1 address)'],
    [entry('subscribers.export', null, { rows: 1204 }), 'Subscriber list exported (1,204 addresses)'],
    [entry('orders.export', null, { rows: 1 }), 'Order list exported (1 order)'],
    [entry('orders.export', null, { rows: 1000000 }), 'Order list exported (1,000,000 orders)'],
    [entry('users.export', null, { rows: 1204 }), 'Reader list exported (1,204 accounts)'],
    [entry('users.export', null, null), 'Reader list exported'],
    [entry('newsletter.send-test', null, null), 'Newsletter send test'],
    [entry('review.approve', '12', null), 'Review #12 approved'],
    [entry('review.hide', '12', null), 'Review #12 hidden'],
    [entry('review.answer', '12', null), 'Review #12 answered'],
    [entry('review.answer_remove', '12', null), 'Answer to review #12 removed'],
  ])('%#: %s', (input, words) => {
    expect(describeAuditEntry(input, titles)).toBe(words);
  });

  it('never shows a raw code', () => {
    const words = describeAuditEntry(entry('settings.update', 'site.content', { changed: ['heroQuote'] }));
    expect(words).not.toMatch(/settings\.update|#site\.content/);
  });
});
