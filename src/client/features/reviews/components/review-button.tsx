/**
 * In the library, beside each book: "Review this book", or "Edit your review" once written. Opens the review
 * form in a dialog; the reader's review is read only when the dialog opens.
 */
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { errorText } from '@client/lib/api-errors';
import { useMyReview } from '../api';
import { ReviewForm } from './review-form';

export function ReviewButton({ bookId, title }: { bookId: number; title: string }) {
  const [open, setOpen] = useState(false);
  const mine = useMyReview(open ? bookId : null);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          Review this book
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Your review of {title}</DialogTitle>
          <DialogDescription>Rate it and say what you thought. The author reads every review before it appears on the site.</DialogDescription>
        </DialogHeader>
        {mine.isPending ? (
          <Spinner label="Loading your review" showLabel />
        ) : mine.isError ? (
          <p role="alert" className="text-sm text-blood-300">{errorText(mine.error)}</p>
        ) : (
          <ReviewForm bookId={bookId} review={mine.data.review} />
        )}
      </DialogContent>
    </Dialog>
  );
}
