/**
 * The OPDS 1.2 acquisition feed (an Atom feed with the OPDS link relations) of a reader's library: one
 * entry per book, with its cover and thumbnail and one acquisition link per format they own.
 */
import { escapeMarkup } from '../../platform/http/markup';

export const OPDS_ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition';

const FILE_TYPES = { ebook: 'application/epub+zip', pdf: 'application/pdf' } as const;
const IMAGE_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif' };

export interface OpdsInput {
  feedId: string;
  title: string;
  author: string;
  siteUrl: string;
  selfUrl: string;
  updated: Date;
  books: Array<{
    book: { id: number; title: string; coverImage: string };
    purchaseDate: string;
    copies: Array<{ purchaseId: number; format: 'ebook' | 'pdf' }>;
  }>;
  coverUrl: (path: string) => string;
  acquisitionUrl: (purchaseId: number) => string;
}

const x = escapeMarkup;

export function opdsFeed(input: OpdsInput): string {
  const entries = input.books.map(({ book, purchaseDate, copies }) => {
    const cover = input.coverUrl(book.coverImage);
    const imageType = IMAGE_TYPES[/\.([a-z0-9]+)$/i.exec(book.coverImage)?.[1]?.toLowerCase() ?? ''] ?? 'image/jpeg';
    return [
      '<entry>',
      `<title>${x(book.title)}</title>`,
      `<id>${x(`${input.feedId}:book:${book.id}`)}</id>`,
      `<updated>${new Date(purchaseDate).toISOString()}</updated>`,
      `<author><name>${x(input.author)}</name></author>`,
      '<dc:language>en</dc:language>',
      `<link rel="http://opds-spec.org/image" href="${x(cover)}" type="${imageType}"/>`,
      `<link rel="http://opds-spec.org/image/thumbnail" href="${x(cover)}" type="${imageType}"/>`,
      ...copies.map(
        (copy) => `<link rel="http://opds-spec.org/acquisition" href="${x(input.acquisitionUrl(copy.purchaseId))}" type="${FILE_TYPES[copy.format]}"/>`,
      ),
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/" xmlns:opds="http://opds-spec.org/2010/catalog">',
    `<id>${x(input.feedId)}</id>`,
    `<title>${x(input.title)}</title>`,
    `<updated>${input.updated.toISOString()}</updated>`,
    `<author><name>${x(input.author)}</name><uri>${x(input.siteUrl)}</uri></author>`,
    `<link rel="self" href="${x(input.selfUrl)}" type="${OPDS_ACQUISITION_TYPE}"/>`,
    `<link rel="start" href="${x(input.selfUrl)}" type="${OPDS_ACQUISITION_TYPE}"/>`,
    ...entries,
    '</feed>',
  ].join('\n');
}
