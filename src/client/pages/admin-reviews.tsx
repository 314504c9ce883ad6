/**
 * /admin/reviews: readers' verified reviews (decision 0085). The author approves one (it appears on the home
 * page marked "Verified reader"), hides one, or answers it in public beside the review.
 */
import { useState } from 'react';
import { REVIEW_ANSWER_MAX, type AdminReview, type ReviewStatus } from '@shared/schemas/reviews';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FormField } from '@client/components/ui/form-field';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/toast-store';
import { AdminFrame, EmptyState, QueryState } from '@client/features/admin/components/admin-frame';
import { useAdminReviews, useModerateReview } from '@client/features/reviews/api';
import { errorText, fieldErrors } from '@client/lib/api-errors';
import { formatDateTime } from '@client/lib/format';

const FILTERS: Array<{ value: ReviewStatus | 'all'; label: string }> = [
  { value: 'pending', label: 'Waiting' },
  { value: 'approved', label: 'Approved' },
  { value: 'hidden', label: 'Hidden' },
  { value: 'all', label: 'All' },
];
const STATUS_LABEL: Record<ReviewStatus, string> = { pending: 'Waiting', approved: 'Approved', hidden: 'Hidden' };

export default function AdminReviewsPage() {
  const [filter, setFilter] = useState<ReviewStatus | 'all'>('pending');
  const reviews = useAdminReviews(filter);
  return (
    <AdminFrame
      title="Reviews"
      intro="Reviews by readers who own the book. Approved reviews appear on the home page as a verified reader's."
      actions={
        <div role="group" aria-label="Show" className="inline-flex gap-1 rounded-lg border border-ink-700 bg-ink-900 p-1">
          {FILTERS.map((f) => (
            <Button key={f.value} size="sm" variant={filter === f.value ? 'primary' : 'ghost'} aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
              {f.label}
            </Button>
          ))}
        </div>
      }
    >
      <QueryState query={reviews}>
        {() =>
          reviews.data!.length === 0 ? (
            <EmptyState>{filter === 'pending' ? 'No reviews are waiting.' : 'No reviews here yet.'}</EmptyState>
          ) : (
            <ul className="grid gap-4">
              {reviews.data!.map((r) => (
                <li key={r.id}>
                  <ReviewCard review={r} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}

function ReviewCard({ review }: { review: AdminReview }) {
  const moderate = useModerateReview();
  const [answer, setAnswer] = useState(review.answer ?? '');
  const [answerError, setAnswerError] = useState<string | undefined>();

  const act = async (action: Parameters<typeof moderate.mutateAsync>[0], done: string) => {
    try {
      await moderate.mutateAsync(action);
      setAnswerError(undefined);
      toast({ title: done });
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields.answer) setAnswerError(fields.answer);
      else toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <Card className="grid gap-3 p-5" aria-label={`Review by ${review.reader}`}>
      <div className="flex flex-wrap items-center gap-3">
        <p className="font-semibold text-bone-50">{review.reader}</p>
        <span className="text-sm text-bone-200">
          <span aria-hidden="true" className="text-blood-400">★</span> {review.rating} out of 5
        </span>
        <Badge variant={review.status === 'pending' ? 'accent' : 'outline'}>{STATUS_LABEL[review.status]}</Badge>
        <span className="text-sm text-bone-400">
          {review.bookTitle} · <time dateTime={review.updatedAt}>{formatDateTime(review.updatedAt)}</time>
        </span>
      </div>
      <p className="whitespace-pre-wrap text-bone-100">{review.text}</p>
      <div className="flex flex-wrap gap-2">
        {review.status !== 'approved' ? (
          <Button size="sm" disabled={moderate.isPending} onClick={() => act({ id: review.id, kind: 'approve' }, 'Review approved')}>
            Approve
          </Button>
        ) : null}
        {review.status !== 'hidden' ? (
          <Button size="sm" variant="outline" disabled={moderate.isPending} onClick={() => act({ id: review.id, kind: 'hide' }, 'Review hidden')}>
            Hide
          </Button>
        ) : null}
      </div>
      <form
        noValidate
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void act({ id: review.id, kind: 'answer', answer }, answer.trim() ? 'Answer saved' : 'Answer removed');
        }}
      >
        <FormField label="Your answer" error={answerError} hint="Shown under the review on the home page once it is approved.">
          <Textarea rows={3} maxLength={REVIEW_ANSWER_MAX} value={answer} onChange={(e) => setAnswer(e.target.value)} />
        </FormField>
        <div>
          <Button type="submit" size="sm" variant="outline" disabled={moderate.isPending}>
            Save answer
          </Button>
        </div>
      </form>
    </Card>
  );
}
