/**
 * Home page shell. The hero already reads the featured book (GET /api/books/featured); the other
 * SPEC 2 sections exist with their anchors so navigation works, and are filled by feature
 * components as they land (synopsis, excerpts, author, reviews, purchase, upcoming, gallery, contact,
 * newsletter).
 */
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BookOpen, ShoppingBag } from 'lucide-react';
import type { FeaturedBook } from '@shared/schemas/books';
import { EARLY_READER_RATING } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';
import { DEFAULT_TITLE, SITE } from '@client/lib/site';

const FEATURED_KEY = ['/api/books/featured'] as const;

function useHomeTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} | ${SITE.author}` : DEFAULT_TITLE;
    return () => {
      document.title = DEFAULT_TITLE;
    };
  }, [title]);
}

function Hero() {
  const featured = useQuery<FeaturedBook>({ queryKey: FEATURED_KEY });
  // If the featured book cannot be read, the site is still about this novel.
  const title = featured.data?.title ?? (featured.isError ? SITE.bookTitle : undefined);
  useHomeTitle(title);

  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden border-b border-ink-800">
      <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(800px_400px_at_20%_20%,rgb(179_18_31/0.18),transparent_70%)]" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 py-20 sm:px-6 md:py-28 lg:grid-cols-[1.2fr_1fr]">
        <div>
          <p className="mb-5 text-xs font-semibold tracking-[0.3em] text-blood-400 uppercase">A psychological thriller</p>
          <h1 id="hero-title" className="font-display text-5xl leading-[1.05] font-semibold tracking-tight text-bone-50 md:text-7xl">
            {title ?? (
              <>
                <span className="sr-only">Loading the featured book</span>
                <Skeleton className="h-14 w-4/5 md:h-20" />
                <Skeleton className="mt-3 h-14 w-2/5 md:h-20" />
              </>
            )}
          </h1>
          <p className="mt-6 text-lg tracking-wide text-bone-300">
            by <span className="text-bone-100">{SITE.author}</span>
          </p>
          <blockquote className="mt-8 border-l-2 border-blood-600 pl-5 font-display text-xl leading-relaxed text-bone-100 italic md:text-2xl">
            {SITE.tagline}
          </blockquote>
          <p className="mt-6 max-w-xl leading-relaxed text-bone-300">
            A debut family and psychological thriller about loyalty, the ties of blood, and the price of betrayal.
          </p>
          <div className="mt-10 flex flex-wrap gap-3">
            <Button size="lg" onClick={() => scrollToAnchor('purchase')}>
              <ShoppingBag aria-hidden="true" />
              Get Your Copy
            </Button>
            <Button size="lg" variant="outline" onClick={() => scrollToAnchor('synopsis')}>
              <BookOpen aria-hidden="true" />
              Read Synopsis
            </Button>
          </div>
        </div>
        <CoverArt title={title ?? SITE.bookTitle} />
      </div>
    </section>
  );
}

/** Typographic stand-in until the cover image component lands; decorative (title is in the h1). */
function CoverArt({ title }: { title: string }) {
  return (
    <div aria-hidden="true" className="mx-auto w-full max-w-xs [perspective:1200px] lg:max-w-sm">
      <div className="relative aspect-[2/3] rotate-y-[-8deg] overflow-hidden rounded-r-md border border-ink-700 bg-gradient-to-b from-ink-800 via-ink-950 to-black shadow-[30px_30px_60px_rgb(0_0_0/0.7)]">
        <div className="absolute inset-y-0 left-0 w-3 bg-gradient-to-r from-black/70 to-transparent" />
        <div className="absolute top-0 right-10 h-2/5 w-px bg-gradient-to-b from-blood-500 to-transparent" />
        <div className="flex h-full flex-col justify-between p-8">
          <p className="text-[10px] tracking-[0.4em] text-bone-400 uppercase">A novel</p>
          <p className="font-display text-4xl leading-tight font-semibold text-bone-50">{title}</p>
          <p className="text-sm tracking-[0.3em] text-blood-400 uppercase">{SITE.author}</p>
        </div>
      </div>
    </div>
  );
}

function Section({ id, eyebrow, title, children }: { id: string; eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="border-b border-ink-800/70">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <p className="mb-3 text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">{eyebrow}</p>
        <h2 id={`${id}-title`} className="font-display text-3xl font-semibold text-bone-50 md:text-4xl">
          {title}
        </h2>
        {children ? <div className="mt-6 max-w-3xl leading-relaxed text-bone-300">{children}</div> : null}
      </div>
    </section>
  );
}

export default function HomePage() {
  return (
    <>
      <Hero />
      <Section id="synopsis" eyebrow="The story" title="Synopsis" />
      <Section id="excerpts" eyebrow="Read the opening" title="The Return" />
      <Section id="author" eyebrow="The author" title={`About ${SITE.author}`} />
      <Section id="reviews" eyebrow="Early readers" title="Reviews">
        <p>
          Early-reader rating <span className="font-semibold text-bone-100">{EARLY_READER_RATING}</span> out of 5.
        </p>
      </Section>
      <Section id="purchase" eyebrow="Get the book" title="Purchase" />
      <Section id="upcoming" eyebrow="Coming soon" title="The Next Novel" />
      <Section id="cover-gallery" eyebrow="Gallery" title="Book Cover Gallery" />
      <Section id="contact" eyebrow="Get in touch" title="Contact" />
      <Section id="newsletter-section" eyebrow="The Thriller Circle" title="Newsletter" />
    </>
  );
}
