import { z } from 'zod';
import { text } from './common';
import { verifiedReviewSchema } from './reviews';

const bookBase = z.object({
  id: z.number().int(),
  title: text(),
  tagline: text(),
  synopsis: text(),
  coverImage: text(),
  yearPublished: z.number().int(),
  publisher: text(),
});

export const siteContentSchema = z.object({
  siteTitle: text(),
  authorName: text(),
  authorBio: z.array(text()),
  authorPhoto: text(),
  heroQuote: z.object({ text: text(), source: text() }),
  heroBlurb: text(),
  publisher: z.object({ name: text(), url: text() }),
  agent: z.object({ name: text(), agency: text() }),
  social: z.object({ x: text(), instagram: text(), facebook: text(), goodreads: text() }),
  excerpt: z.object({ title: text(), chapter: text(), paragraphs: z.array(text()) }),
});
export type SiteContent = z.infer<typeof siteContentSchema>;

export const galleryCoverSchema = z.object({
  id: text(),
  title: text(),
  description: text(),
  image: text(),
  alt: text(),
});
export type GalleryCover = z.infer<typeof galleryCoverSchema>;

export const reviewSchema = z.object({
  id: z.number().int(),
  rating: z.number(),
  text: text(),
  author: text(),
  title: text(),
});
export type Review = z.infer<typeof reviewSchema>;

export const siteFormatSchema = z.object({
  id: text(),
  title: text(),
  features: z.array(text()),
  buttonText: text(),
  /** Server price in minor units; null when the format is not on sale. */
  price: z.number().int().nullable(),
});
export type SiteFormat = z.infer<typeof siteFormatSchema>;

/** GET /api/site: everything the public home page shows, in one read. */
export const siteAnswerSchema = z.object({
  content: siteContentSchema,
  featuredBook: bookBase.nullable(),
  upcomingBook: bookBase.extend({ teaserVideoId: text().nullable() }).nullable(),
  reviews: z.array(reviewSchema),
  rating: z.object({ value: z.number(), count: z.number().int() }),
  /** Approved reviews by readers who own the featured book, newest first (decision 0085). */
  verifiedReviews: z.array(verifiedReviewSchema),
  /** The rating over every approved verified review; null until one is approved. */
  verifiedRating: z.object({ value: z.number(), count: z.number().int() }).nullable(),
  gallery: z.array(galleryCoverSchema),
  formats: z.array(siteFormatSchema),
  /** How many books are published (in the catalogue, /books); the home page links there past two. */
  publishedBooks: z.number().int(),
  /** Fixed demo credentials for the newsletter section's demo Login; null when the operator turned it off. */
  demoLogin: z.object({ username: text(), password: text() }).nullable(),
});
export type SiteAnswer = z.infer<typeof siteAnswerSchema>;
export type UpcomingBook = NonNullable<SiteAnswer['upcomingBook']>;
export type FeaturedSiteBook = NonNullable<SiteAnswer['featuredBook']>;
