/** /listen/{bookId}: the owner's audiobook, resumed where they stopped on any device. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, BookText } from 'lucide-react';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Link, useNavigate, useParams, useSearchParams } from '@client/lib/router';
import { SITE } from '@client/lib/site';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useAuthStatus } from '@client/lib/session';
import { contentUrl, fetchChapters, fetchPosition, useSyncMap } from '@client/features/reading/api';
import { readTarget } from '@client/features/reading/switch';
import { AudioPlayer } from '@client/features/reading/components/audio-player';
import { RoomMessage } from '@client/features/reading/components/room-message';
import { useReleaseDate } from './use-release-date';
import { speedKey } from '@client/features/reading/prefs';
import { usePositionSync } from '@client/features/reading/use-position-sync';
import { isApiStatus } from '@client/lib/api-errors';
import { ReviewPrompt } from '@client/features/reviews/components/review-prompt';
import NotFoundPage from './not-found';

/** How close to the end counts as having heard the book (the last credits may be skipped). */
const END_SECONDS = 2;

export default function ListenPage() {
  const params = useParams();
  const bookId = Number(params.bookId);
  const valid = Number.isSafeInteger(bookId) && bookId > 0;
  const sync = usePositionSync(valid ? bookId : null, 'audiobook');
  const { user } = useAuthStatus();
  // The last seconds heard: the moment to ask "Enjoyed it?" (decision 0085).
  const [atEnd, setAtEnd] = useState(false);
  const navigate = useNavigate();
  // "Listen from here" in the reader opens the player at a chapter's start instead of the saved place.
  const [search] = useSearchParams();
  const at = /^\d{1,6}(\.\d+)?$/.test(search.get('at') ?? '') ? Number(search.get('at')) : null;
  // Read <-> listen: offered to the owner of both formats (the map is null otherwise).
  const syncMap = useSyncMap(bookId, valid);
  const [heard, setHeard] = useState<number | null>(null);
  const readHere = syncMap.data ? readTarget(syncMap.data, bookId, heard ?? at ?? 0) : null;
  const book = useQuery<{ title: string; coverImage: string }>({ queryKey: [`/api/books/${bookId}`], enabled: valid });
  const opened = useQuery({
    queryKey: ['listening-room', bookId],
    queryFn: async ({ signal }) => {
      const [chapters, position] = await Promise.all([fetchChapters(bookId, signal), fetchPosition(bookId, 'audiobook', signal)]);
      return { ...chapters, position };
    },
    enabled: valid,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  const title = book.data?.title ?? SITE.bookTitle;
  useDocumentTitle(`Listening to ${title}`);
  const releaseDate = useReleaseDate(bookId, opened.error);

  // A book that does not exist is no page (the server answered this path with 404 too).
  if (!valid || isApiStatus(book.error, 404)) return <NotFoundPage />;
  if (opened.isError) return <RoomMessage error={opened.error} availableAt={releaseDate} />;
  return (
    <section className="mx-auto max-w-2xl px-4 pt-6 pb-28 sm:pt-10">
      <Link to="/profile#library" className={buttonClasses('ghost', 'sm', '-ml-2')}>
        <ArrowLeft aria-hidden="true" /> Your library
      </Link>
      <div className="mt-4 flex items-center gap-5">
        {book.data?.coverImage ? (
          <img src={book.data.coverImage} alt="" className="h-28 w-[4.75rem] shrink-0 rounded-sm border border-ink-700 object-cover shadow-lg shadow-black/50" />
        ) : null}
        <div>
          <p className="text-sm tracking-[0.2em] text-blood-400 uppercase">Audiobook</p>
          <h1 className="font-display text-3xl font-semibold text-bone-50">{title}</h1>
          <p className="mt-1 text-bone-300">{SITE.author}</p>
        </div>
      </div>
      {readHere && !opened.isPending ? (
        <Button
          variant="outline"
          size="sm"
          className="mt-5"
          onClick={() => {
            // The place heard so far is saved before the reader opens.
            sync.flush();
            navigate(readHere);
          }}
        >
          <BookText aria-hidden="true" />
          Read from here
        </Button>
      ) : null}
      <div className="mt-8">
        {opened.isPending ? (
          <div className="grid min-h-[40vh] place-items-center">
            <Spinner label="Opening your audiobook" showLabel />
          </div>
        ) : (
          <AudioPlayer
            src={contentUrl(bookId, 'audiobook')}
            title={title}
            author={SITE.author}
            artwork={book.data?.coverImage}
            chapters={opened.data.chapters}
            startAt={at ?? (Number(opened.data.position?.locator ?? 0) || 0)}
            onPosition={(seconds, duration) => {
              sync.report(seconds.toFixed(1), duration ? seconds / duration : 0);
              setHeard(seconds);
              if (duration > 0 && seconds >= duration - END_SECONDS) setAtEnd(true);
            }}
            speedStorageKey={speedKey(user?.id ?? null)}
          />
        )}
      </div>
      <ReviewPrompt bookId={bookId} reachedEnd={atEnd} />
    </section>
  );
}
