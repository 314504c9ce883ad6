/**
 * Early-reader reviews (read from the database) with the displayed 4.8 rating, and beside them the reviews of
 * verified readers the author approved (decision 0085). Both come in the home page's one read of /api/site.
 */
import { Star, StarHalf } from 'lucide-react';
import type { SiteAnswer } from '@shared/schemas/site';
import type { VerifiedReview } from '@shared/schemas/reviews';
import { Skeleton } from '@client/components/ui/skeleton';
import { HomeSection } from './home-section';

function Stars({ rating, size = 'size-4' }: { rating: number; size?: string }) {
  return (
    <span aria-hidden="true" className="inline-flex gap-0.5 text-blood-400">
      {Array.from({ length: 5 }, (_, i) => {
        const filled = rating >= i + 1;
        const half = !filled && rating >= i + 0.5;
        if (half) return <StarHalf key={i} className={`${size} fill-current`} />;
        return <Star key={i} className={`${size} ${filled ? 'fill-current' : 'text-ink-600'}`} />;
      })}
    </span>
  );
}

export function ReviewsSection({ site }: { site: SiteAnswer | undefined }) {
  const rating = site?.rating;
  return (
    <HomeSection
      id="reviews"
      eyebrow="Early readers"
      title="What Readers Are Saying"
      band
      actions={
        rating ? (
          <div className="flex items-center gap-4 rounded-xl border border-ink-700 bg-ink-950/70 px-5 py-4">
            <p className="font-display text-5xl font-semibold text-bone-50">{rating.value.toFixed(1)}</p>
            <div>
              <Stars rating={rating.value} size="size-5" />
              <p className="mt-1 text-sm text-bone-300">
                Early-reader rating <span className="sr-only">{rating.value} out of 5</span>
              </p>
            </div>
          </div>
        ) : null
      }
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {site
          ? site.reviews.map((review) => (
              <li key={review.id} className="flex flex-col rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30">
                <p className="flex items-center gap-2">
                  <Stars rating={review.rating} />
                  <span className="sr-only">Rated {review.rating} out of 5</span>
                  <span aria-hidden="true" className="text-sm text-bone-400">{review.rating}</span>
                </p>
                <blockquote className="mt-4 flex-1 leading-relaxed text-bone-200">“{review.text}”</blockquote>
                <p className="mt-6 border-t border-ink-700 pt-4">
                  <span className="block font-medium text-bone-50">{review.author}</span>
                  <span className="text-sm text-bone-400">{review.title}</span>
                </p>
              </li>
            ))
          : Array.from({ length: 3 }, (_, i) => (
              <li key={i}>
                <Skeleton className="h-64 w-full" />
              </li>
            ))}
      </ul>
      {site && site.verifiedReviews.length > 0 ? <VerifiedReviews reviews={site.verifiedReviews} rating={site.verifiedRating} /> : null}
    </HomeSection>
  );
}

function VerifiedReviews({ reviews, rating }: { reviews: VerifiedReview[]; rating: SiteAnswer['verifiedRating'] }) {
  return (
    <section aria-labelledby="verified-reviews-title" className="mt-12">
      <h3 id="verified-reviews-title" className="font-display text-2xl font-semibold text-bone-50">
        From verified readers
      </h3>
      {rating ? (
        <p className="mt-2 text-sm text-bone-300">
          {rating.value.toFixed(1)} out of 5 from {rating.count} verified {rating.count === 1 ? 'review' : 'reviews'}
        </p>
      ) : null}
      <ul className="mt-6 grid gap-6 md:grid-cols-3">
        {reviews.map((review) => (
          <li key={review.id} className="flex flex-col rounded-xl border border-ink-700 bg-ink-900/80 p-6">
            <p className="flex items-center gap-2">
              <Stars rating={review.rating} />
              <span className="sr-only">Rated {review.rating} out of 5</span>
              <span className="ml-auto rounded-full border border-blood-400/60 px-2 py-0.5 text-xs font-medium text-blood-300">
                Verified reader
              </span>
            </p>
            <blockquote className="mt-4 flex-1 whitespace-pre-line leading-relaxed text-bone-200">“{review.text}”</blockquote>
            <p className="mt-6 border-t border-ink-700 pt-4 font-medium text-bone-50">{review.author}</p>
            {review.answer ? (
              <div className="mt-4 rounded-lg bg-ink-950/70 p-4 text-sm text-bone-300">
                <p className="font-medium text-bone-100">The author answers</p>
                <p className="mt-1 whitespace-pre-line">{review.answer}</p>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
