/**
 * The reader's review of a book they own: a rating of 1 to 5 stars and a text. The shared schema checks it
 * here before sending and the server checks it again; the server's field messages show under the fields.
 * Saving an edit sends the review back to the author for approval, and the form says so.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { REVIEW_MESSAGES, REVIEW_TEXT_MAX, reviewRequestSchema, type MyReview } from '@shared/schemas/reviews';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage, fieldErrors } from '@client/lib/api-errors';
import { cn } from '@client/lib/cn';
import { useSaveReview } from '../api';

const STATUS_TEXT: Record<MyReview['status'], string> = {
  pending: 'Waiting for the author to read it.',
  approved: 'Shown on the home page as a verified reader’s review.',
  hidden: 'Not shown on the site.',
};

/**
 * A star drawn here rather than taken from the icon set: the home page's reviews section is the only other
 * user of that icon, and sharing it would split it into a chunk of its own that the home page's first view
 * must list (decision 0085).
 */
function StarShape({ filled }: { filled: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={cn('size-7', filled ? 'fill-current text-blood-400' : 'fill-none text-ink-500')} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M12 2.5l2.9 6.2 6.8.8-5 4.7 1.3 6.8L12 17.6 6 21l1.3-6.8-5-4.7 6.8-.8z" />
    </svg>
  );
}

export function ReviewForm({ bookId, review, onSaved }: { bookId: number; review: MyReview | null; onSaved?: () => void }) {
  const id = useId();
  const [rating, setRating] = useState<number>(review?.rating ?? 0);
  const [text, setText] = useState(review?.text ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveReview(bookId);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setFailure(null);
    const parsed = reviewRequestSchema.safeParse({ rating: rating || undefined, text });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ input: parsed.data, edit: review !== null });
      setSaved(true);
      onSaved?.();
    } catch (error) {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length) setErrors(fields);
      else setFailure(errorMessage(error, 'Your review could not be saved. Please try again.'));
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Review this book" className="grid gap-4">
      <fieldset aria-describedby={errors.rating ? `${id}-rating-error` : undefined}>
        <legend className="text-sm font-medium text-bone-100">Your rating</legend>
        <div className="mt-2 flex gap-1" role="radiogroup" aria-label="Your rating">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="cursor-pointer rounded-md p-1 focus-within:ring-2 focus-within:ring-blood-400">
              <input
                type="radio"
                name={`${id}-rating`}
                value={n}
                checked={rating === n}
                onChange={() => setRating(n)}
                className="sr-only"
              />
              <StarShape filled={n <= rating} />
              <span className="sr-only">{n === 1 ? '1 star' : `${n} stars`}</span>
            </label>
          ))}
        </div>
        {errors.rating ? (
          <p id={`${id}-rating-error`} className="mt-1 text-sm text-blood-300">
            {errors.rating}
          </p>
        ) : null}
      </fieldset>
      <FormField label="Your review" error={errors.text} hint={`At most ${REVIEW_TEXT_MAX} characters.`}>
        <Textarea name="text" rows={5} maxLength={REVIEW_TEXT_MAX} value={text} onChange={(e) => setText(e.target.value)} />
      </FormField>
      {failure ? <Alert variant="destructive" title="Not saved">{failure}</Alert> : null}
      {saved ? (
        <p role="status" className="text-sm text-bone-200">
          {REVIEW_MESSAGES.saved}
        </p>
      ) : review && !save.isPending ? (
        <p className="text-sm text-bone-300">{STATUS_TEXT[review.status]}</p>
      ) : null}
      {review?.answer ? (
        <div className="rounded-lg bg-ink-950/70 p-3 text-sm text-bone-300">
          <p className="font-medium text-bone-100">The author answers</p>
          <p className="mt-1 whitespace-pre-line">{review.answer}</p>
        </div>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : review ? 'Save changes' : 'Post review'}
        </Button>
      </div>
    </form>
  );
}
