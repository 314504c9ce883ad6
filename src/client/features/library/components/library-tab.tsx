/**
 * "My Library" (docs/PRODUCT.md, Library; Downloads): the reader's digital purchases grouped by
 * book, each format downloadable once, plus any printed orders with their shipping status.
 */
import { formatLabel } from '@shared/constants';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from '@client/lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { Library, LogIn } from 'lucide-react';
import type { LibraryItem } from '@shared/schemas/library';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import {
  LIBRARY_KEY,
  requestAnotherDownload,
  requestDownload,
  requestResumeLink,
  resumeTransfer,
  triggerBrowserDownload,
  useLibrary,
  useOrders,
} from '../api';
import { groupLibrary } from '../group';
import { LibraryBookCard, type LibraryBookActions, type LibraryItemActions, formatDisplay } from './library-book-card';
import { OrdersList, type OrdersListProps } from './orders-list';

const LOAD_ERROR = 'Error loading your purchases. Please try again.';

export interface LibraryTabProps {
  userId?: number | null;
  /** Filled by the page with other features' parts: reading room links, Send to Kindle, gift status. */
  itemActions?: LibraryItemActions;
  /** Filled by the page for each book: the reader's review. */
  bookActions?: LibraryBookActions;
  orderStatus?: OrdersListProps['orderStatus'];
  /** Filled by the page: offers to complete the reader's set (a bundle that makes a missing format cheaper). */
  offers?: ReactNode;
}

export function LibraryTab({ userId, itemActions, bookActions, orderStatus, offers }: LibraryTabProps) {
  const signedIn = typeof userId === 'number' && userId > 0;
  const library = useLibrary(signedIn);
  const orders = useOrders(signedIn);
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<number | null>(null);

  useEffect(() => {
    if (library.isError) toast({ title: 'Error', description: LOAD_ERROR, variant: 'destructive' });
  }, [library.isError]);

  /** Runs one row's action with every download button waiting, then shows what the server now says. */
  async function busyWith(item: LibraryItem, action: () => Promise<void>) {
    setBusyId(item.id);
    try {
      await action();
    } finally {
      setBusyId(null);
      await queryClient.invalidateQueries({ queryKey: LIBRARY_KEY });
    }
  }

  const download = (item: LibraryItem) =>
    busyWith(item, async () => {
      try {
        const { url, fileName } = await requestDownload(item);
        triggerBrowserDownload(url, fileName);
        toast({ title: 'Download Started', description: `Your ${formatLabel(item.format)} download has started.` });
      } catch (error) {
        const message = error instanceof Error ? error.message : 'We could not prepare your download. Please try again in a moment.';
        if (message.includes('Download limit') || message.includes('already used your download')) {
          toast({
            title: 'Download Used',
            description: 'You have already used your download. Please contact support for assistance.',
            variant: 'destructive',
          });
        } else {
          toast({ title: 'Download Failed', description: message, variant: 'destructive' });
        }
      }
    });

  const resume = (item: LibraryItem) =>
    busyWith(item, async () => {
      try {
        const { url, fileName } = await requestResumeLink(item);
        toast({ title: 'Resuming your download', description: 'Your download continues on the same link.' });
        await resumeTransfer(url, fileName);
        toast({ title: 'Download complete', description: `Your ${formatDisplay(item.format).label} has been saved on this device.` });
      } catch (error) {
        toast({ title: 'Download Failed', description: error instanceof Error ? error.message : 'We could not prepare your download. Please try again in a moment.', variant: 'destructive' });
      }
    });

  const requestAnother = (item: LibraryItem) =>
    busyWith(item, async () => {
      try {
        toast({ title: 'Request sent', description: await requestAnotherDownload(item) });
      } catch (error) {
        toast({ title: 'Request not sent', description: error instanceof Error ? error.message : 'Please try again.', variant: 'destructive' });
      }
    });

  const handlers = {
    busyId,
    onDownload: (i: LibraryItem) => void download(i),
    onResume: (i: LibraryItem) => void resume(i),
    onRequestAnother: (i: LibraryItem) => void requestAnother(i),
  };

  return (
    <section aria-labelledby="library-title">
      <h2 id="library-title" className="flex items-center gap-3 font-display text-3xl font-semibold text-bone-50">
        <Library aria-hidden="true" className="size-7 text-blood-400" /> Your Library
      </h2>
      <div className="mt-6">
        {!signedIn ? (
          <div className="grid gap-4 rounded-xl border border-ink-700 bg-ink-900/80 p-6">
            <p className="text-bone-200">Please log in to see your library and download your purchases.</p>
            <Link to="/login" className={buttonClasses('primary', 'md', 'w-fit')}>
              <LogIn aria-hidden="true" /> Log in
            </Link>
          </div>
        ) : library.isPending ? (
          <div className="grid gap-4" aria-busy="true">
            <span className="sr-only" role="status">Loading your library</span>
            <Skeleton className="h-44 w-full rounded-xl" />
            <Skeleton className="h-20 w-full rounded-xl" />
          </div>
        ) : library.isError ? (
          <Alert variant="destructive" title={LOAD_ERROR}>
            <Button className="mt-3" size="sm" variant="outline" onClick={() => void library.refetch()}>
              Try Again
            </Button>
          </Alert>
        ) : library.data.length === 0 ? (
          <div className="grid justify-items-start gap-4 rounded-xl border border-dashed border-ink-600 p-8">
            <p className="text-bone-200">You haven&apos;t purchased any digital content yet.</p>
            <Link to="/#purchase" className={buttonClasses('primary', 'md')}>
              Browse Books
            </Link>
          </div>
        ) : (
          <ul className="grid gap-6">
            {groupLibrary(library.data).map((group) => (
              <LibraryBookCard
                key={group.book.id}
                group={group}
                handlers={handlers}
                itemActions={itemActions}
                bookActions={bookActions}
              />
            ))}
          </ul>
        )}
        {signedIn && library.data && library.data.length > 0 ? offers : null}
        {signedIn && orders.data ? <OrdersList orders={orders.data} orderStatus={orderStatus} /> : null}
      </div>
    </section>
  );
}
