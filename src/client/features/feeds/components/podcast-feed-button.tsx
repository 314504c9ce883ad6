/**
 * "Podcast app" beside an owned audiobook: the reader's private feed address to paste into any podcast
 * player, and "New address" to retire it (decision 0086). Listening that way never uses the download.
 */
import { useState } from 'react';
import { Podcast } from 'lucide-react';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Skeleton } from '@client/components/ui/skeleton';
import { useFeedLink, useRegenerateFeedLink } from '../api';
import { CopyButton } from '@client/components/ui/copy-button';

export function PodcastFeedButton({ bookId, title }: { bookId: number; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Listen to ${title} in a podcast app`}>
          <Podcast aria-hidden="true" /> Podcast app
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Listen in your podcast app</DialogTitle>
          <DialogDescription>
            Add this private address to your podcast app to hear {title} chapter by chapter. Listening does not use up
            your download. Keep the address to yourself.
          </DialogDescription>
        </DialogHeader>
        {open ? <FeedPanel bookId={bookId} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function FeedPanel({ bookId }: { bookId: number }) {
  const link = useFeedLink(bookId, true);
  const regenerate = useRegenerateFeedLink(bookId);
  if (link.isPending) return <Skeleton className="h-10 w-full" />;
  if (link.isError) return <Alert variant="destructive">{link.error.message}</Alert>;
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor={`feed-url-${bookId}`}>Feed address</Label>
        <div className="flex gap-2">
          <Input id={`feed-url-${bookId}`} readOnly value={link.data.feedUrl} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={link.data.feedUrl} label="Copy feed address" />
        </div>
      </div>
      {regenerate.isSuccess ? <Alert>{regenerate.data.message}</Alert> : null}
      {regenerate.isError ? <Alert variant="destructive">{regenerate.error.message}</Alert> : null}
      <p className="text-sm text-bone-300">Shared it by mistake? A new address stops the old one at once.</p>
      <Button type="button" variant="outline" size="sm" disabled={regenerate.isPending} onClick={() => regenerate.mutate()}>
        New address
      </Button>
    </div>
  );
}
