/**
 * Home page (SPEC 2): every section with its anchor, fed by one read of GET /api/site (the featured
 * title, synopsis, reviews and covers all come from the database). Head tags are set while it is shown.
 */
import { useSite } from '@client/features/home/api';
import { useHomeHead } from '@client/features/home/use-home-head';
import { AuthorSection } from '@client/features/home/components/author-section';
import { BlogTeaser } from '@client/features/home/components/blog-teaser';
import { ContactSection } from '@client/features/home/components/contact-section';
import { ExcerptSection } from '@client/features/home/components/excerpt-section';
import { GallerySection } from '@client/features/home/components/gallery-section';
import { Hero } from '@client/features/home/components/hero';
import { ReviewsSection } from '@client/features/home/components/reviews-section';
import { SynopsisSection } from '@client/features/home/components/synopsis-section';
import { UpcomingSection } from '@client/features/home/components/upcoming-section';
import { NewsletterSection } from '@client/features/newsletter/components/newsletter-section';
import { PurchaseSection } from '@client/features/purchase/components/purchase-section';
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
      <SynopsisSection site={data} />
      <ExcerptSection site={data} />
      <AuthorSection site={data} />
      <ReviewsSection site={data} />
      <PurchaseSection />
      <UpcomingSection book={data?.upcomingBook} loading={site.isPending} />
      <GallerySection site={data} />
      <BlogTeaser />
      <ContactSection site={data} />
      <NewsletterSection demo={data?.demoLogin} />
    </>
  );
}
