/**
 * The upcoming book (docs/PRODUCT.md, Upcoming): a skeleton while loading, then the first non-featured book with its teaser
 * and a waitlist button; otherwise "No upcoming books available at this time". The teaser player is
 * only embedded when the reader asks for it, from the privacy-enhanced (no-cookie) domain.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PreOrderArea as Area } from '@shared/schemas/pre-orders';
import { BellRing, Library, Play } from 'lucide-react';
import { CATALOGUE_LINK_MIN_BOOKS, WAITLIST_FOCUS_DELAY_MS } from '@shared/constants';
import type { UpcomingBook } from '@shared/schemas/site';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import { NEWSLETTER_EMAIL_ID } from '@client/features/newsletter/components/newsletter-section';
import { PRE_ORDER_KEY, PreOrderArea } from '@client/features/pre-orders/components/pre-order-area';
import { HomeSection } from '@client/features/site/components/home-section';

export const NEWSLETTER_SECTION_ID = 'newsletter-section';

/** Scrolls to the newsletter and focuses its email box after 800 ms (once the scroll has settled). */
export function joinWaitlist(): void {
  const section = document.getElementById(NEWSLETTER_SECTION_ID);
  if (!section) {
    toast({
      title: 'Newsletter Section Not Found',
      description: 'Please scroll down to the newsletter section to join the waitlist.',
      variant: 'destructive',
      duration: 5000,
    });
    return;
  }
  section.scrollIntoView({ behavior: 'smooth', block: 'start' });
  setTimeout(() => {
    document.getElementById(NEWSLETTER_EMAIL_ID)?.focus();
  }, WAITLIST_FOCUS_DELAY_MS);
}

function Teaser({ book }: { book: UpcomingBook }) {
  const [playing, setPlaying] = useState(false);
  if (!book.teaserVideoId) return null;
  const src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(book.teaserVideoId)}?autoplay=1&rel=0`;
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-xl border border-ink-700 bg-black shadow-2xl shadow-black/50">
      {playing ? (
        <iframe
          src={src}
          title={`${book.title}: teaser video`}
          className="absolute inset-0 h-full w-full"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className="group absolute inset-0 flex flex-col items-center justify-center gap-4 bg-[radial-gradient(closest-side,rgb(69_6_12/0.65),rgb(9_8_10))] text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none focus-visible:ring-inset"
        >
          <span className="flex size-20 items-center justify-center rounded-full bg-blood-600 shadow-lg shadow-blood-900/60 transition group-hover:scale-105 group-hover:bg-blood-500">
            <Play aria-hidden="true" className="ml-1 size-8 fill-current" />
          </span>
          <span className="font-display text-xl">Play the teaser</span>
          <span className="max-w-xs px-4 text-center text-xs text-bone-300">
            Loads the video player from youtube-nocookie.com when you press play.
          </span>
        </button>
      )}
    </div>
  );
}

/** The home page's way to the catalogue, once it holds more than the home page's own two books. */
function CatalogueLink({ count }: { count: number | undefined }) {
  if (count === undefined || count < CATALOGUE_LINK_MIN_BOOKS) return null;
  return (
    <p className="mt-12 border-t border-ink-800 pt-8 text-center">
      <Link to="/books" className={buttonClasses('outline', 'lg')}>
        <Library aria-hidden="true" />
        Browse all {count} books
      </Link>
    </p>
  );
}

export function UpcomingSection({ book, loading, publishedBooks }: { book: UpcomingBook | null | undefined; loading: boolean; publishedBooks?: number }) {
  // Once its release date has passed the book is out: the block no longer calls it "Coming soon".
  const released = useQuery<Area | null>({ queryKey: PRE_ORDER_KEY }).data?.released === true;
  return (
    <HomeSection id="upcoming" eyebrow={released ? 'Out now' : 'Coming soon'} title={book && !loading ? book.title : 'The Next Novel'}>
      {loading ? (
        <div role="status" aria-label="Loading the upcoming book" className="grid gap-10 lg:grid-cols-2">
          <Skeleton className="aspect-video w-full" />
          <div className="space-y-4">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-11/12" />
            <Skeleton className="h-5 w-4/5" />
            <Skeleton className="h-12 w-48" />
          </div>
        </div>
      ) : !book ? (
        <p className="rounded-xl border border-dashed border-ink-600 p-10 text-center text-bone-300">
          No upcoming books available at this time
        </p>
      ) : (
        <div className="grid items-center gap-10 lg:grid-cols-2">
          <Teaser book={book} />
          <div>
            <p className="font-display text-2xl leading-snug text-bone-50 italic">{book.tagline}</p>
            <div className="mt-5 space-y-4 leading-relaxed text-bone-300">
              {book.synopsis.split(/\n{2,}/).slice(0, 2).map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
            <p className="mt-5 text-sm text-bone-400">
              {book.publisher} · {book.yearPublished}
            </p>
            <Button size="lg" className="mt-8" onClick={joinWaitlist}>
              <BellRing aria-hidden="true" />
              Join the Waitlist
            </Button>
            <PreOrderArea />
          </div>
        </div>
      )}
      <CatalogueLink count={publishedBooks} />
    </HomeSection>
  );
}
