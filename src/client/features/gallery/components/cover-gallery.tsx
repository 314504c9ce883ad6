/**
 * The book cover gallery (docs/PRODUCT.md, Cover gallery): three covers with a title and description, Previous/Next that wrap
 * around, clickable thumbnails, and the main image opening a large lightbox dialog. Arrow keys step
 * through the covers; the lightbox is its own chunk, fetched only when first opened.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { ChevronLeft, ChevronRight, Expand } from 'lucide-react';
import type { GalleryCover } from '@shared/schemas/site';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/cn';
import { responsiveImage } from '@client/lib/responsive-image';

const Lightbox = lazy(() => import('./lightbox'));

export const wrapIndex = (index: number, count: number) => ((index % count) + count) % count;

export function CoverGallery({ covers }: { covers: GalleryCover[] }) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  const [lightboxRequested, setLightboxRequested] = useState(false);
  const mainButton = useRef<HTMLButtonElement>(null);
  const count = covers.length;
  if (count === 0) return null;
  const current = covers[wrapIndex(index, count)];
  const go = (step: number) => setIndex((i) => wrapIndex(i + step, count));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(-1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(1);
    }
  };

  const openLightbox = () => {
    setLightboxRequested(true);
    setOpen(true);
  };

  return (
    <div role="group" aria-roledescription="carousel" aria-label="Book covers" onKeyDown={onKeyDown}>
      <div className="grid items-center gap-10 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <div className="relative">
          <button
            ref={mainButton}
            type="button"
            onClick={openLightbox}
            className="group relative flex h-[26rem] w-full items-center justify-center overflow-hidden rounded-2xl border border-ink-700 bg-[radial-gradient(closest-side,rgb(42_38_44),rgb(9_8_10))] p-6 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none sm:h-[32rem]"
            aria-label={`View larger: ${current.title}`}
          >
            <img
              key={current.id}
              {...responsiveImage(current.image, '(min-width: 1024px) 34rem, 90vw')}
              alt={current.alt}
              loading="lazy"
              className="max-h-full max-w-full animate-fade-in object-contain shadow-[20px_24px_50px_rgb(0_0_0/0.7)]"
            />
            <span className="absolute right-4 bottom-4 inline-flex items-center gap-2 rounded-full bg-ink-950/80 px-3 py-1.5 text-xs text-bone-200 opacity-90 ring-1 ring-ink-600 group-hover:text-bone-50">
              <Expand aria-hidden="true" className="size-3.5" />
              View larger
            </span>
          </button>
          <Button variant="outline" size="icon" aria-label="Previous cover" onClick={() => go(-1)} className="absolute top-1/2 left-3 -translate-y-1/2 bg-ink-950/80">
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button variant="outline" size="icon" aria-label="Next cover" onClick={() => go(1)} className="absolute top-1/2 right-3 -translate-y-1/2 bg-ink-950/80">
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
        <div>
          <p className="text-sm tracking-[0.2em] text-bone-400 uppercase" aria-live="polite" aria-atomic="true">
            Cover {wrapIndex(index, count) + 1} of {count}
            <span className="sr-only">: {current.title}</span>
          </p>
          <h3 className="mt-2 font-display text-3xl font-semibold text-bone-50">{current.title}</h3>
          <p className="mt-4 leading-relaxed text-bone-300">{current.description}</p>
          <ul className="mt-8 flex gap-4" aria-label="Choose a cover">
            {covers.map((cover, i) => {
              const selected = i === wrapIndex(index, count);
              return (
                <li key={cover.id}>
                  <button
                    type="button"
                    onClick={() => setIndex(i)}
                    aria-label={`Show ${cover.title}`}
                    aria-current={selected ? 'true' : undefined}
                    className={cn(
                      'flex h-24 w-20 items-center justify-center overflow-hidden rounded-md border bg-ink-900 p-1 transition focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none',
                      selected ? 'border-blood-500 ring-1 ring-blood-500' : 'border-ink-600 opacity-70 hover:opacity-100',
                    )}
                  >
                    <img {...responsiveImage(cover.image, '5rem')} alt="" loading="lazy" className="max-h-full max-w-full object-contain" />
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      {lightboxRequested ? (
        <Suspense fallback={null}>
          <Lightbox cover={current} open={open} onOpenChange={setOpen} returnFocus={mainButton} />
        </Suspense>
      ) : null}
    </div>
  );
}
