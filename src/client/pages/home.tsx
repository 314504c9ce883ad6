/**
 * Home page (docs/PRODUCT.md, Public site): every section with its anchor, fed by one read of GET /api/site (the featured
 * title, synopsis, reviews and covers all come from the database). Head tags are set while it is shown.
 * The server renders all of it; the browser runs the hero's code at once and each later section's code
 * as the reader nears it.
 */
import { useSite } from '@client/features/site/api';
import { useHomeHead } from '@client/pages/home-sections/use-home-head';
import { Hero } from '@client/features/site/components/hero';
import {
  AuthorSection,
  BlogTeaser,
  ContactSection,
  ExcerptSection,
  GallerySection,
  NewsletterSection,
  PurchaseSection,
  ReviewsSection,
  SectionSlot,
  SynopsisSection,
  UpcomingSection,
} from '@client/pages/home-sections/lazy-sections';
import { SITE } from '@client/lib/site';

export default function HomePage() {
  const site = useSite();
  const data = site.data;
  const book = data?.featuredBook;

  useHomeHead(
    data && book
      ? {
          title: `${book.title} | ${data.content.authorName}`,
          description: `${book.tagline} ${data.content.heroBlurb}`,
          keywords: [book.title, data.content.authorName, 'thriller', 'psychological thriller', 'family thriller', 'debut novel', 'book'].join(', '),
          image: '/images/og-image.png',
          url: '/',
        }
      : site.isError
        ? {
            title: `${SITE.bookTitle} | ${SITE.author}`,
            description: SITE.defaultDescription,
            keywords: `${SITE.bookTitle}, ${SITE.author}, thriller`,
            image: '/images/og-image.png',
            url: '/',
          }
        : null,
  );

  return (
    <>
      <Hero site={data} failed={site.isError} />
      {/* Below the hero, each section's code arrives as the reader nears it (pages/home-sections/lazy-sections). */}
      <SectionSlot><SynopsisSection site={data} /></SectionSlot>
      <SectionSlot><ExcerptSection site={data} /></SectionSlot>
      <SectionSlot><AuthorSection site={data} /></SectionSlot>
      <SectionSlot><ReviewsSection site={data} /></SectionSlot>
      <SectionSlot><PurchaseSection /></SectionSlot>
      <SectionSlot><UpcomingSection book={data?.upcomingBook} loading={site.isPending} publishedBooks={data?.publishedBooks} /></SectionSlot>
      <SectionSlot><GallerySection site={data} /></SectionSlot>
      <SectionSlot><BlogTeaser /></SectionSlot>
      <SectionSlot><ContactSection site={data} /></SectionSlot>
      <SectionSlot><NewsletterSection demo={data?.demoLogin} /></SectionSlot>
    </>
  );
}
