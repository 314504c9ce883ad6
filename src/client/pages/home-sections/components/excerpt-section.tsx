/** The excerpt "The Return" (docs/PRODUCT.md, Excerpt): collapsed to a maximum height until Continue Reading; Show Less collapses it. */
import { useId, useRef, useState } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';
import type { SiteAnswer } from '@shared/schemas/site';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { ShareControl } from '@client/features/sharing/components/share-control';
import { cn } from '@client/lib/cn';
import { HomeSection } from '@client/features/site/components/home-section';
import { ReadFirstChapterLink } from '@client/features/site/components/read-first-chapter-link';

export function ExcerptSection({ site }: { site: SiteAnswer | undefined }) {
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const sectionRef = useRef<HTMLDivElement>(null);
  const excerpt = site?.content.excerpt;

  const collapse = () => {
    setExpanded(false);
    // Bring the reader back to the start of the excerpt rather than leaving them far below it.
    sectionRef.current?.scrollIntoView({ block: 'start' });
  };

  return (
    <HomeSection id="excerpts" eyebrow={excerpt?.chapter ?? 'Read the opening'} title={excerpt?.title ?? 'The Return'} band>
      <div ref={sectionRef} className="mx-auto max-w-3xl scroll-mt-28">
        <article className="relative rounded-2xl border border-ink-700 bg-ink-950/80 px-6 py-10 shadow-2xl shadow-black/40 sm:px-12">
          <div
            id={bodyId}
            data-testid="excerpt-body"
            data-expanded={expanded}
            className={cn(
              'relative space-y-5 font-display text-lg leading-[1.85] text-bone-200',
              !expanded && 'max-h-[26rem] overflow-hidden',
            )}
          >
            {excerpt
              ? excerpt.paragraphs.map((p, i) => (
                  <p key={i} className={i === 0 ? 'first-letter:float-left first-letter:mr-2 first-letter:text-5xl first-letter:leading-none first-letter:text-blood-400' : undefined}>
                    {p}
                  </p>
                ))
              : Array.from({ length: 8 }, (_, i) => <Skeleton key={i} className="h-5 w-full" />)}
            {!expanded ? (
              <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-0 h-40 bg-gradient-to-t from-ink-950 via-ink-950/85 to-transparent" />
            ) : null}
          </div>
          <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-ink-800 pt-6">
            {expanded ? (
              <Button variant="outline" aria-controls={bodyId} aria-expanded onClick={collapse}>
                <ChevronUp aria-hidden="true" />
                Show Less
              </Button>
            ) : (
              <Button aria-controls={bodyId} aria-expanded={false} onClick={() => setExpanded(true)} disabled={!excerpt}>
                <ChevronDown aria-hidden="true" />
                Continue Reading
              </Button>
            )}
            <ReadFirstChapterLink />
            <ShareControl label="Share the excerpt" title={`${excerpt?.title ?? 'The Return'}: an extract from What We Owe the Dead`} />
          </div>
        </article>
      </div>
    </HomeSection>
  );
}
