/**
 * The RSS 2.0 document of a private audiobook feed, with the iTunes podcast tags every podcast app reads
 * and the Podcasting 2.0 `locked` tag, so no directory lists it. Episodes are numbered in the book's order
 * and dated a minute apart from the feed's creation, so apps that sort by date keep that order too.
 */
import type { Book } from '@shared/schemas/books';
import { escapeMarkup } from '../../platform/http/markup';
import type { Episode } from './podcast';

export interface PodcastFeedInput {
  book: Pick<Book, 'id' | 'title' | 'tagline' | 'synopsis' | 'coverImage' | 'publisher'>;
  author: string;
  episodes: Episode[];
  /** Absolute URL of episode n's enclosure. */
  enclosureUrl: (episode: Episode) => string;
  siteUrl: string;
  coverUrl: string;
  createdAt: Date;
  /** Identifies this feed and version of the master, so a replaced file reads as new episodes. */
  guidPrefix: string;
}

const x = escapeMarkup;

export function podcastRss(input: PodcastFeedInput): string {
  const { book, author, episodes, coverUrl } = input;
  const description = `${book.tagline} ${book.synopsis}`.trim();
  const items = episodes.map((episode) => {
    const date = new Date(input.createdAt.getTime() - (episodes.length - episode.number) * 60_000).toUTCString();
    return [
      '<item>',
      `<title>${x(episode.title)}</title>`,
      `<guid isPermaLink="false">${x(`${input.guidPrefix}-${episode.number}`)}</guid>`,
      `<pubDate>${date}</pubDate>`,
      `<description>${x(`${book.title}, ${episode.title}`)}</description>`,
      `<enclosure url="${x(input.enclosureUrl(episode))}" length="${episode.bytes.end - episode.bytes.start + 1}" type="${x(episode.contentType)}"/>`,
      episode.duration !== null ? `<itunes:duration>${Math.round(episode.duration)}</itunes:duration>` : '',
      `<itunes:episode>${episode.number}</itunes:episode>`,
      '<itunes:episodeType>full</itunes:episodeType>',
      `<itunes:image href="${x(coverUrl)}"/>`,
      '<itunes:explicit>false</itunes:explicit>',
      '</item>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">',
    '<channel>',
    `<title>${x(book.title)}</title>`,
    `<link>${x(input.siteUrl)}</link>`,
    `<description>${x(description)}</description>`,
    '<language>en</language>',
    `<copyright>${x(`© ${book.publisher}`)}</copyright>`,
    `<image><url>${x(coverUrl)}</url><title>${x(book.title)}</title><link>${x(input.siteUrl)}</link></image>`,
    `<itunes:author>${x(author)}</itunes:author>`,
    `<itunes:image href="${x(coverUrl)}"/>`,
    '<itunes:type>serial</itunes:type>',
    '<itunes:explicit>false</itunes:explicit>',
    // A private feed: podcast directories must not list it.
    '<itunes:block>Yes</itunes:block>',
    '<podcast:locked>yes</podcast:locked>',
    ...items,
    '</channel>',
    '</rss>',
  ].join('\n');
}
