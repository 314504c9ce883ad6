/**
 * The home page below the hero. The server renders every section; in the browser each section's code
 * loads only when the reader comes near it (or at once when the page is reached by an in-app link), and
 * React hydrates it then. Until that moment the server's HTML stands in place, readable and with working
 * links, so the first view downloads and runs only the code of what it shows.
 */
import { Suspense, useEffect } from 'react';
import type { ComponentProps, ComponentType, ReactNode } from 'react';
import { holdUntilLive, markLive } from '@client/lib/early-actions';
import { preloadable } from '@client/lib/preloadable';
import { whenNear } from '@client/lib/when-near';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section's props
function section<C extends ComponentType<any>>(id: string, load: () => Promise<C>) {
  return preloadable<ComponentProps<C>>(
    () => load().then((component) => ({ default: liveOnMount(id, component as ComponentType<ComponentProps<C>>) })),
    // Over the server's HTML, wait for the reader; drawn in the browser (an in-app visit), every section
    // at once, so they appear together and a link to one of them lands where it will stay.
    () => (typeof document !== 'undefined' && document.getElementById(id) ? whenNear(id) : preloadSections()),
  );
}

/** The section, announcing once mounted (hydrated) that presses held on its server HTML can be replayed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section's props
function liveOnMount<P extends Record<string, any>>(id: string, Section: ComponentType<P>): ComponentType<P> {
  function LiveSection(props: P) {
    useEffect(() => markLive(id), []);
    return <Section {...props} />;
  }
  return LiveSection;
}

/** Holds a section's place (roughly its height) while its code arrives after an in-app navigation. */
export function SectionSlot({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div aria-hidden="true" className="min-h-[40rem] border-b border-ink-800/70" />}>{children}</Suspense>;
}

export const SynopsisSection = section('synopsis', () =>
  import('./components/synopsis-section').then((m) => m.SynopsisSection),
);
export const ExcerptSection = section('excerpts', () =>
  import('./components/excerpt-section').then((m) => m.ExcerptSection),
);
export const AuthorSection = section('author', () => import('@client/features/site/components/author-section').then((m) => m.AuthorSection));
export const ReviewsSection = section('reviews', () =>
  import('@client/features/site/components/reviews-section').then((m) => m.ReviewsSection),
);
export const PurchaseSection = section('purchase', () =>
  import('@client/features/checkout/components/purchase-section').then((m) => m.PurchaseSection),
);
export const UpcomingSection = section('upcoming', () =>
  import('./components/upcoming-section').then((m) => m.UpcomingSection),
);
export const GallerySection = section('cover-gallery', () =>
  import('./components/gallery-section').then((m) => m.GallerySection),
);
export const BlogTeaser = section('blog-teaser', () => import('./components/blog-teaser').then((m) => m.BlogTeaser));
export const ContactSection = section('contact', () =>
  import('./components/contact-section').then((m) => m.ContactSection),
);
export const NewsletterSection = section('newsletter-section', () =>
  import('@client/features/newsletter/components/newsletter-section').then((m) => m.NewsletterSection),
);

const SECTIONS = [
  ['synopsis', SynopsisSection],
  ['excerpts', ExcerptSection],
  ['author', AuthorSection],
  ['reviews', ReviewsSection],
  ['purchase', PurchaseSection],
  ['upcoming', UpcomingSection],
  ['cover-gallery', GallerySection],
  ['blog-teaser', BlogTeaser],
  ['contact', ContactSection],
  ['newsletter-section', NewsletterSection],
] as const;

/** Loads the code of every section (an in-app visit to the home page shows them all at once). */
export function preloadSections(): Promise<void> {
  return Promise.all(SECTIONS.map(([, section]) => section.preload())).then(() => undefined);
}

/**
 * Before hydration: loads the sections the reader already sees (or that the address's #anchor points
 * into), so whatever is on screen is interactive as soon as the page is hydrated; the others follow as
 * they come into view. A press on a section before it is live is held and replayed (lib/early-actions).
 */
export function preloadVisibleSections(): Promise<void> {
  for (const [id, section] of SECTIONS) {
    const element = document.getElementById(id);
    if (element) holdUntilLive(id, element, () => void section.preload().catch(() => undefined));
  }
  const target = window.location.hash.length > 1 ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
  const wanted = SECTIONS.filter(([id]) => {
    const element = document.getElementById(id);
    if (!element) return false;
    if (target && element.contains(target)) return true;
    const box = element.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });
  return Promise.all(wanted.map(([, section]) => section.preload())).then(() => undefined);
}
