/** About the author: portrait, biography, agent and publisher. */
import type { SiteAnswer } from '@shared/schemas/site';
import { Skeleton } from '@client/components/ui/skeleton';
import { responsiveImage } from '@client/lib/responsive-image';
import { HomeSection } from './home-section';

export function AuthorSection({ site }: { site: SiteAnswer | undefined }) {
  const content = site?.content;
  return (
    <HomeSection id="author" eyebrow="The author" title={content ? `About ${content.authorName}` : 'About the Author'}>
      <div className="grid items-start gap-12 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <div className="relative mx-auto w-full max-w-xs">
          <div aria-hidden="true" className="absolute -top-3 -left-3 h-full w-full rounded-xl border border-blood-700/60" />
          {content ? (
            <img
              {...responsiveImage(content.authorPhoto, '(min-width: 768px) 18rem, 20rem')}
              alt={`Portrait of ${content.authorName}`}
              width={360}
              height={450}
              loading="lazy"
              className="relative aspect-[4/5] w-full rounded-xl object-cover ring-1 ring-ink-700 grayscale-[30%]"
            />
          ) : (
            <Skeleton className="aspect-[4/5] w-full" />
          )}
        </div>
        <div className="max-w-3xl space-y-5 text-lg leading-relaxed text-bone-200">
          {content
            ? content.authorBio.map((p, i) => <p key={i}>{p}</p>)
            : Array.from({ length: 5 }, (_, i) => <Skeleton key={i} className="h-5 w-full" />)}
          {content ? (
            <dl className="grid gap-6 border-t border-ink-800 pt-6 text-base sm:grid-cols-2">
              <div>
                <dt className="text-xs tracking-[0.2em] text-bone-400 uppercase">Literary agent</dt>
                <dd className="mt-1 text-bone-100">
                  {content.agent.name}, {content.agent.agency}
                </dd>
              </div>
              <div>
                <dt className="text-xs tracking-[0.2em] text-bone-400 uppercase">Publisher</dt>
                <dd className="mt-1 text-bone-100">{content.publisher.name}</dd>
              </div>
            </dl>
          ) : null}
        </div>
      </div>
    </HomeSection>
  );
}
