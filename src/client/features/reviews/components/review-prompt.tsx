/**
 * "Enjoyed it?": asked once at the end of a book, in the web reader and in the audiobook player, of a reader
 * who owns it and has neither reviewed it nor said "Not now" (the server remembers that, on every device).
 * `reachedEnd` is the reading room's own judgement of the end (last page, last seconds).
 */
import { useEffect, useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { useDismissReviewPrompt, useMyReview } from '../api';
import { ReviewForm } from './review-form';

export function ReviewPrompt({ bookId, reachedEnd }: { bookId: number; reachedEnd: boolean }) {
  // Asked only once the end is reached, so a reader mid-book makes no request for it.
  const [asked, setAsked] = useState(false);
  const mine = useMyReview(asked ? bookId : null);
  const [open, setOpen] = useState(false);
  const [posted, setPosted] = useState(false);
  const dismiss = useDismissReviewPrompt(bookId);

  useEffect(() => {
    if (reachedEnd) setAsked(true);
  }, [reachedEnd]);
  // Opens once per visit, the first time the answer says to ask.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!shown && mine.data?.askAtEnd) {
      setShown(true);
      setOpen(true);
    }
  }, [shown, mine.data?.askAtEnd]);

  const notNow = () => {
    setOpen(false);
    // Only "Not now" is remembered; closing after posting needs nothing more.
    if (!posted) dismiss.mutate();
  };

  if (!mine.data) return null;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : notNow())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Enjoyed it?</DialogTitle>
          <DialogDescription>
            You have reached the end of {mine.data.bookTitle}. Rate it and say what you thought: your review helps other readers find it.
          </DialogDescription>
        </DialogHeader>
        <ReviewForm bookId={bookId} review={mine.data.review} onSaved={() => setPosted(true)} />
        <div className="flex justify-end">
          <Button variant="ghost" onClick={notNow}>
            {posted ? 'Done' : 'Not now'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
