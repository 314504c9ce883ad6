/** /listen/{bookId}: the owner's audiobook, resumed where they stopped on any device. */
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Link, useParams } from '@client/lib/router';
import { SITE } from '@client/lib/site';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useAuthStatus } from '@client/lib/session';
import { contentUrl, fetchChapters, fetchPosition } from '@client/features/reading/api';
import { AudioPlayer } from '@client/features/reading/components/audio-player';
import { RoomMessage } from '@client/features/reading/components/room-message';
import { useReleaseDate } from './use-release-date';
import { speedKey } from '@client/features/reading/prefs';
import { usePositionSync } from '@client/features/reading/use-position-sync';
import { isApiStatus } from '@client/lib/api-errors';
import NotFoundPage from './not-found';

export default function ListenPage() {
  const params = useParams();
  const bookId = Number(params.bookId);
  const valid = Number.isSafeInteger(bookId) && bookId > 0;
  const sync = usePositionSync(valid ? bookId : null, 'audiobook');
  const { user } = useAuthStatus();
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
            startAt={Number(opened.data.position?.locator ?? 0) || 0}
            onPosition={(seconds, duration) => sync.report(seconds.toFixed(1), duration ? seconds / duration : 0)}
            speedStorageKey={speedKey(user?.id ?? null)}
          />
        )}
      </div>
    </section>
  );
}
