/** The synopsis (docs/PRODUCT.md, Synopsis): the featured book's synopsis, Continue Reading (to purchase) and a compact share menu. */
import { ArrowDown } from 'lucide-react';
import type { SiteAnswer } from '@shared/schemas/site';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { ShareControl } from '@client/features/sharing/components/share-control';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';
import { HomeSection } from '@client/features/site/components/home-section';

export function SynopsisSection({ site }: { site: SiteAnswer | undefined }) {
  const book = site?.featuredBook;
  const paragraphs = book?.synopsis.split(/\n{2,}/) ?? [];
  return (
    <HomeSection id="synopsis" eyebrow="The story" title="Synopsis">
      <div className="grid gap-12 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-5 text-lg leading-relaxed text-bone-200">
          {book ? (
            <>
              <p className="font-display text-2xl leading-snug text-bone-50 italic">{book.tagline}</p>
              {paragraphs.map((p, i) => (
                <p key={i} className={i === 0 ? 'first-letter:float-left first-letter:mr-3 first-letter:font-display first-letter:text-6xl first-letter:leading-none first-letter:text-blood-400' : undefined}>
                  {p}
                </p>
              ))}
            </>
          ) : (
            Array.from({ length: 6 }, (_, i) => <Skeleton key={i} className="h-5 w-full" />)
          )}
        </div>
        <aside aria-label="About this book" className="h-fit rounded-xl border border-ink-700 bg-ink-900/70 p-6">
          <dl className="grid grid-cols-2 gap-4 text-sm">
            <div>
              <dt className="text-bone-400">Publisher</dt>
              <dd className="mt-1 text-bone-100">{book?.publisher ?? '…'}</dd>
            </div>
            <div>
              <dt className="text-bone-400">Published</dt>
              <dd className="mt-1 text-bone-100">{book?.yearPublished ?? '…'}</dd>
            </div>
            <div className="col-span-2">
              <dt className="text-bone-400">Agent</dt>
              <dd className="mt-1 text-bone-100">
                {site ? `${site.content.agent.name}, ${site.content.agent.agency}` : '…'}
              </dd>
            </div>
          </dl>
          <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-ink-700 pt-6">
            <Button onClick={() => scrollToAnchor('purchase')}>
              Continue Reading
              <ArrowDown aria-hidden="true" />
            </Button>
            <ShareControl
              variant="compact"
              label="Share the book"
              title={book?.title ?? 'What We Owe the Dead'}
              text={book?.tagline}
            />
          </div>
        </aside>
      </div>
    </HomeSection>
  );
}
