/**
 * The profile's library as readers see it: the library feature's list, with what other features add to
 * each row (the reading room and how far the reader got, Send to Kindle for e-books, a gift's status, and
 * "Post your review" for a review copy) and to each book (the reader's review).
 */
import { SendToKindleButton } from '@client/features/copies/components/send-to-kindle';
import { PodcastFeedButton } from '@client/features/feeds/components/podcast-feed-button';
import { GiftStatus } from '@client/features/gifts/components/gift-status';
import { LibraryOffers } from '@client/features/checkout/components/library-offers';
import { ORDERS_KEY } from '@client/features/library/api';
import { LibraryTab } from '@client/features/library/components/library-tab';
import { useReadingProgress } from '@client/features/reading/api';
import { useMyReviewCopies } from '@client/features/review-copies/api';
import { ReviewCopyAction, reviewCopyFor } from '@client/features/review-copies/components/review-copy-action';
import { RoomLink } from '@client/features/reading/components/room-link';
import { shownProgress } from '@client/features/reading/switch';
import { ReviewButton } from '@client/features/reviews/components/review-button';

export function ProfileLibrary({ userId }: { userId?: number | null }) {
  const signedIn = typeof userId === 'number' && userId > 0;
  const progress = useReadingProgress(signedIn).data ?? [];
  const reviewCopies = useMyReviewCopies(signedIn).data;
  return (
    <LibraryTab
      userId={userId}
      itemActions={(item, { label, title }) => {
        const reviewCopy = reviewCopyFor(reviewCopies, item);
        return (
          <>
            {reviewCopy ? <ReviewCopyAction copy={reviewCopy} /> : null}
            <RoomLink
              bookId={item.bookId}
              format={item.format}
              label={label}
              progress={shownProgress(progress, item.bookId, item.format)}
            />
            {item.format === 'ebook' ? <SendToKindleButton bookId={item.bookId} title={title} /> : null}
            {item.format === 'audiobook' ? <PodcastFeedButton bookId={item.bookId} title={title} /> : null}
          </>
        );
      }}
      bookActions={(book) => <ReviewButton bookId={book.id} title={book.title} />}
      offers={<LibraryOffers />}
      orderStatus={(order) => (order.gift ? <GiftStatus gift={order.gift} ordersKey={ORDERS_KEY} /> : null)}
    />
  );
}
