/**
 * Beside a review copy in the reader's library (decision 0099): "Post your review", which opens the campaign
 * page's form, until a link is posted; then that it is posted.
 */
import { CheckCircle2, PenLine } from 'lucide-react';
import type { MyReviewCopy } from '@shared/schemas/review-copies';
import { buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';

export const REVIEW_POSTED = 'Review posted';

/** The reader's approved review copy behind a library row, if it is one. */
export const reviewCopyFor = (copies: MyReviewCopy[] | undefined, item: { bookId: number; format: string }) =>
  copies?.find((c) => c.status === 'approved' && c.bookId === item.bookId && c.format === item.format);

export function ReviewCopyAction({ copy }: { copy: MyReviewCopy }) {
  if (copy.reviewLinks.length > 0) {
    return (
      <span className="flex items-center gap-1.5 text-sm text-emerald-300">
        <CheckCircle2 aria-hidden="true" className="size-4" />
        {REVIEW_POSTED}
      </span>
    );
  }
  return (
    <Link to={`/review-copies/${copy.slug}`} className={buttonClasses('primary', 'sm')}>
      <PenLine aria-hidden="true" />
      Post your review
    </Link>
  );
}
