/**
 * "Recent changes" in words. The audit log stores machine codes (`settings.update`, `book.update` with a
 * target id and some details); the author reads "Site content updated" or `Book "X" edited`. Codes this
 * file does not know yet still read as words ("Newsletter send" for `newsletter.send`), never as a code.
 */
import type { AuditEntry } from '@shared/schemas/admin';
import { formatLabel } from '@shared/constants';

type Details = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

const FIELD_WORDS: Record<string, string> = {
  authorName: 'author name',
  authorBio: 'author bio',
  authorPhoto: 'author photo',
  heroQuote: 'hero quote',
  heroBlurb: 'hero blurb',
  teaserVideoId: 'teaser video',
  socialLinks: 'social links',
};
const fieldWords = (key: string) => FIELD_WORDS[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** `newsletter.send-test` -> "Newsletter send test". */
/** "Order list exported (1,204 orders)": a CSV export with its row count (decision 0071). */
const exported = (list: string, rows: number | null, one: string, many: string) =>
  rows === null ? `${list} exported` : `${list} exported (${rows.toLocaleString('en-GB')} ${rows === 1 ? one : many})`;

export function humanizeCode(code: string): string {
  const words = code.replace(/[._-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Change';
}

export function describeAuditEntry(entry: AuditEntry, bookTitles: ReadonlyMap<number, string> = new Map()): string {
  const details: Details = entry.details && typeof entry.details === 'object' ? (entry.details as Details) : {};
  const targetId = entry.targetId !== null && /^\d+$/.test(entry.targetId) ? Number(entry.targetId) : null;
  const bookName = (id: number | null, fallback?: unknown) => {
    const title = (id !== null ? bookTitles.get(id) : undefined) ?? text(fallback);
    return title ? `"${title}"` : id !== null ? `#${id}` : '';
  };

  switch (entry.action) {
    case 'settings.update': {
      const changed = Array.isArray(details.changed) ? details.changed.filter((c): c is string => typeof c === 'string') : [];
      return changed.length ? `Site content updated (${changed.map(fieldWords).join(', ')})` : 'Site content updated';
    }
    case 'book.create':
      return `Book ${bookName(targetId, details.title)} added`;
    case 'book.update': {
      const changed = details.changed && typeof details.changed === 'object' ? (details.changed as Details) : {};
      return `Book ${bookName(targetId, changed.title)} edited`;
    }
    case 'post.create':
    case 'post.update': {
      const slug = text(details.slug);
      const verb = entry.action === 'post.create' ? 'written' : 'edited';
      const state = details.isPublished === true ? 'published' : details.isPublished === false ? 'draft' : null;
      return `Blog post ${slug ? `"${slug}"` : `#${entry.targetId ?? ''}`} ${verb}${state ? ` (${state})` : ''}`;
    }
    case 'file.upload':
    case 'file.replace': {
      const format = text(details.format);
      const book = bookName(num(details.bookId));
      const what = `${format ? formatLabel(format) : 'Digital'} file`;
      const version = text(details.version);
      return entry.action === 'file.upload'
        ? `${what} uploaded${book ? ` for ${book}` : ''}`
        : `${what} replaced${book ? ` for ${book}` : ''}${version ? ` (now version ${version})` : ''}`;
    }
    case 'order.ship': {
      const ref = text(details.orderReference);
      return `Order ${ref ?? `#${entry.targetId ?? ''}`} marked shipped`;
    }
    case 'order.reset-download': {
      const format = text(details.format);
      return `${format ? `${formatLabel(format)} download` : 'Download'} given back (order #${entry.targetId ?? ''})`;
    }
    case 'subscribers.export':
      return exported('Subscriber list', num(details.rows), 'address', 'addresses');
    case 'orders.export':
      return exported('Order list', num(details.rows), 'order', 'orders');
    case 'users.export':
      return exported('Reader list', num(details.rows), 'account', 'accounts');
    case 'image.upload':
      return 'Image uploaded';
    // Verified reviews (decision 0085).
    case 'review.approve':
      return `Review #${entry.targetId} approved`;
    case 'review.hide':
      return `Review #${entry.targetId} hidden`;
    case 'review.answer':
      return `Review #${entry.targetId} answered`;
    case 'review.answer_remove':
      return `Answer to review #${entry.targetId} removed`;
    default:
      return humanizeCode(entry.action);
  }
}
