import { z } from 'zod';

const bookBase = z.object({
  id: z.number().int(),
  title: z.string(),
  tagline: z.string(),
  synopsis: z.string(),
  coverImage: z.string(),
  yearPublished: z.number().int(),
  publisher: z.string(),
});

export const siteContentSchema = z.object({
  siteTitle: z.string(),
  authorName: z.string(),
  authorBio: z.array(z.string()),
  authorPhoto: z.string(),
  heroQuote: z.object({ text: z.string(), source: z.string() }),
  heroBlurb: z.string(),
  publisher: z.object({ name: z.string(), url: z.string() }),
  agent: z.object({ name: z.string(), agency: z.string() }),
  social: z.object({ x: z.string(), instagram: z.string(), facebook: z.string(), goodreads: z.string() }),
  excerpt: z.object({ title: z.string(), chapter: z.string(), paragraphs: z.array(z.string()) }),
});
export type SiteContent = z.infer<typeof siteContentSchema>;

export const galleryCoverSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  image: z.string(),
  alt: z.string(),
});
export type GalleryCover = z.infer<typeof galleryCoverSchema>;

export const reviewSchema = z.object({
  id: z.number().int(),
  rating: z.number(),
  text: z.string(),
  author: z.string(),
  title: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const siteFormatSchema = z.object({
  id: z.string(),
  title: z.string(),
  features: z.array(z.string()),
  buttonText: z.string(),
  /** Server price in minor units; null when the format is not on sale. */
  price: z.number().int().nullable(),
});
export type SiteFormat = z.infer<typeof siteFormatSchema>;

/** GET /api/site: everything the public home page shows, in one read. */
export const siteAnswerSchema = z.object({
  content: siteContentSchema,
  featuredBook: bookBase.nullable(),
  upcomingBook: bookBase.extend({ teaserVideoId: z.string().nullable() }).nullable(),
  reviews: z.array(reviewSchema),
  rating: z.object({ value: z.number(), count: z.number().int() }),
  gallery: z.array(galleryCoverSchema),
  formats: z.array(siteFormatSchema),
  /** Fixed demo credentials for the newsletter section's demo Login; null when the operator turned it off. */
  demoLogin: z.object({ username: z.string(), password: z.string() }).nullable(),
});
export type SiteAnswer = z.infer<typeof siteAnswerSchema>;
export type UpcomingBook = NonNullable<SiteAnswer['upcomingBook']>;
export type FeaturedSiteBook = NonNullable<SiteAnswer['featuredBook']>;
