/** /read/{bookId}/{format}: the owner's ebook or PDF, opened at the place they left it on any device. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AudioLines } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { useNavigate, useParams, useSearchParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useImmersivePage } from '@client/lib/immersive';
import { type ContentFormat, contentUrl, fetchContent, fetchPosition, useSyncMap } from '@client/features/reading/api';
import { listenTarget } from '@client/features/reading/switch';
import { EpubReader, preloadEpubReader } from '@client/features/reading/components/epub-reader';
import { PdfReader } from '@client/features/reading/components/pdf-reader';
import { RoomMessage } from '@client/features/reading/components/room-message';
import { useReleaseDate } from './use-release-date';
import { usePositionSync } from '@client/features/reading/use-position-sync';
import { usePrefs } from '@client/features/reading/use-prefs';
import { isApiStatus } from '@client/lib/api-errors';
import { ReviewPrompt } from '@client/features/reviews/components/review-prompt';
import NotFoundPage from './not-found';

const BACK = { href: '/profile#library', label: 'Your library' };

export default function ReadPage() {
  const params = useParams();
  const bookId = Number(params.bookId);
  const format = params.format === 'ebook' || params.format === 'pdf' ? (params.format as ContentFormat) : null;
  const valid = Number.isSafeInteger(bookId) && bookId > 0 && format !== null;
  const [prefs, setPrefs] = usePrefs();
  // The last page reached: the moment to ask "Enjoyed it?" (decision 0085).
  const [atEnd, setAtEnd] = useState(false);
  const sync = usePositionSync(valid ? bookId : null, format);
  const navigate = useNavigate();
  // "Read from here" in the player opens the e-book at the start of a chapter (its file's path in the book)
  // instead of the saved place. A CFI is never taken from the address: only a plain path.
  const [search] = useSearchParams();
  const chapterParam = search.get('chapter');
  const fromChapter = format === 'ebook' && chapterParam && /^[^#:?]{1,500}$/.test(chapterParam) ? chapterParam : null;
  // Read <-> listen: offered to the owner of both formats (the map is null otherwise).
  const syncMap = useSyncMap(bookId, valid && format === 'ebook');
  const [place, setPlace] = useState<{ section: number; spine: readonly string[] } | null>(null);
  const listenHere = syncMap.data && place ? listenTarget(syncMap.data, bookId, place.spine, place.section) : null;
  const book = useQuery<{ title: string }>({ queryKey: [`/api/books/${bookId}`], enabled: valid });
  // Opened fresh every time: the place may have moved on another device since.
  const opened = useQuery({
    queryKey: ['reading-room', bookId, format],
    queryFn: async ({ signal }) => {
      if (format === 'ebook') void preloadEpubReader().catch(() => undefined);
      const [file, position] = await Promise.all([
        fetchContent(contentUrl(bookId, format!), signal),
        fetchPosition(bookId, format!, signal),
      ]);
      return { file, position };
    },
    enabled: valid,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  const title = book.data?.title ?? 'Your book';
  useDocumentTitle(`Reading ${title}`);
  // The book has the whole screen; a not-found or error message keeps the site around it.
  useImmersivePage(valid && !opened.isError);
  const releaseDate = useReleaseDate(bookId, opened.error);

  // A book that does not exist is no page (the server answered this path with 404 too).
  if (!valid || isApiStatus(book.error, 404)) return <NotFoundPage />;
  if (opened.isError) return <RoomMessage error={opened.error} availableAt={releaseDate} />;
  // What both readers are given; each reports its own kind of place.
  const readerProps = (data: { file: Blob; position: { locator: string } | null }) => ({
    file: data.file,
    startAt: data.position?.locator ?? null,
    title,
    backTo: BACK,
    prefs,
    onPrefsChange: setPrefs,
  });
  return (
    <div className="flex h-dvh flex-col">
      {opened.isPending ? (
        <div className="grid flex-1 place-items-center">
          <Spinner label="Opening your book" showLabel />
        </div>
      ) : format === 'ebook' ? (
        <EpubReader
          {...readerProps(opened.data)}
          startAt={fromChapter ?? opened.data.position?.locator ?? null}
          onLocation={(l) => {
            sync.report(l.cfi, l.fraction);
            setPlace({ section: l.section, spine: l.spine });
            if (l.atEnd) setAtEnd(true);
          }}
          onExternalLink={(href) => window.open(href, '_blank', 'noopener,noreferrer')}
          barActions={
            listenHere ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  // The place read so far is saved before the player opens.
                  sync.flush();
                  navigate(listenHere);
                }}
              >
                <AudioLines aria-hidden="true" />
                Listen from here
              </Button>
            ) : null
          }
        />
      ) : (
        <PdfReader
          {...readerProps(opened.data)}
          onLocation={(l) => {
            sync.report(String(l.page), l.page / l.pages);
            if (l.pages > 0 && l.page >= l.pages) setAtEnd(true);
          }}
        />
      )}
      <ReviewPrompt bookId={bookId} reachedEnd={atEnd} />
    </div>
  );
}
