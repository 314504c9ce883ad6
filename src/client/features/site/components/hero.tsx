/** The hero (docs/PRODUCT.md, Hero): title (from the database), byline, quote, blurb, cover, "Get Your Copy" and "Read Synopsis". */
import { BookOpen, ShoppingBag } from 'lucide-react';
import type { SiteAnswer } from '@shared/schemas/site';
import type { MouseEvent } from 'react';
import { buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';
import { responsiveImage } from '@client/lib/responsive-image';
import { SITE } from '@client/lib/site';

const glideTo = (anchor: string) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  scrollToAnchor(anchor);
};

export function Hero({ site, failed }: { site: SiteAnswer | undefined; failed: boolean }) {
  // If the content cannot be read, the site is still about this novel.
  const title = site?.featuredBook?.title ?? (failed ? SITE.bookTitle : undefined);
  const author = site?.content.authorName ?? SITE.author;
  const quote = site?.content.heroQuote;
  const cover = site?.featuredBook?.coverImage;

  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden border-b border-ink-800">
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-[radial-gradient(900px_480px_at_15%_15%,rgb(179_18_31/0.22),transparent_70%)]" />
      <div aria-hidden="true" className="absolute inset-x-0 bottom-0 -z-10 h-40 bg-gradient-to-t from-ink-950 to-transparent" />
      <div className="mx-auto grid max-w-7xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 md:pt-24 md:pb-28 lg:grid-cols-[1.25fr_1fr]">
        <div>
          <p className="mb-6 inline-flex items-center gap-3 text-xs font-semibold tracking-[0.35em] text-blood-400 uppercase">
            <span aria-hidden="true" className="h-px w-10 bg-blood-500" />
            A psychological thriller
          </p>
          <h1 id="hero-title" className="font-display text-5xl leading-[1.02] font-semibold tracking-tight text-bone-50 sm:text-6xl md:text-7xl">
            {title ?? (
              <>
                <span className="sr-only">Loading the featured book</span>
                <Skeleton className="h-14 w-4/5 md:h-20" />
                <Skeleton className="mt-3 h-14 w-2/5 md:h-20" />
              </>
            )}
          </h1>
          <p className="mt-6 text-lg tracking-wide text-bone-300">
            by <span className="font-medium text-bone-100">{author}</span>
          </p>
          <figure className="mt-8 max-w-2xl border-l-2 border-blood-600 pl-5">
            <blockquote className="font-display text-xl leading-relaxed text-bone-100 italic md:text-2xl">
              {quote ? `“${quote.text}”` : SITE.tagline}
            </blockquote>
            {quote ? <figcaption className="mt-3 text-sm text-bone-400">{quote.source}</figcaption> : null}
          </figure>
          {site ? (
            <p className="mt-6 max-w-xl leading-relaxed text-bone-300">{site.content.heroBlurb}</p>
          ) : (
            <div className="mt-6 max-w-xl space-y-2">
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-11/12" />
              <Skeleton className="h-4 w-3/5" />
            </div>
          )}
          {/* Links to their sections, so they work before (or without) JavaScript; with it they glide. */}
          <div className="mt-10 flex flex-wrap gap-3">
            <a href="#purchase" className={buttonClasses('primary', 'lg')} onClick={glideTo('purchase')}>
              <ShoppingBag aria-hidden="true" />
              Get Your Copy
            </a>
            <a href="#synopsis" className={buttonClasses('outline', 'lg')} onClick={glideTo('synopsis')}>
              <BookOpen aria-hidden="true" />
              Read Synopsis
            </a>
          </div>
        </div>
        <div className="relative mx-auto w-full max-w-[15rem] sm:max-w-xs lg:max-w-sm">
          {/* A soft red glow drawn as a gradient: a blur filter this large costs a phone a full repaint. */}
          <div aria-hidden="true" className="absolute -inset-12 -z-10 bg-[radial-gradient(closest-side,rgb(143_13_24/0.3),transparent)]" />
          {cover ? (
            <img
              {...responsiveImage(cover, '(min-width: 1024px) 24rem, (min-width: 640px) 20rem, 15rem')}
              alt={`Front cover of ${title ?? SITE.bookTitle} by ${author}`}
              width={400}
              height={600}
              fetchPriority="high"
              className="aspect-[2/3] w-full rounded-r-md rounded-l-sm object-cover shadow-[24px_30px_60px_rgb(0_0_0/0.75)] ring-1 ring-ink-700 md:-rotate-2"
            />
          ) : (
            <Skeleton className="aspect-[2/3] w-full" />
          )}
        </div>
      </div>
    </section>
  );
}
