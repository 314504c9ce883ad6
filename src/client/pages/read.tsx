/** /read/{bookId}/{format}: the owner's ebook or PDF, opened at the place they left it on any device. */
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '@client/components/ui/spinner';
import { useParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useImmersivePage } from '@client/lib/immersive';
import { type ContentFormat, contentUrl, fetchContent, fetchPosition } from '@client/features/reading/api';
import { EpubReader, preloadEpubReader } from '@client/features/reading/components/epub-reader';
import { PdfReader } from '@client/features/reading/components/pdf-reader';
import { RoomMessage } from '@client/features/reading/components/room-message';
import { useReleaseDate } from './use-release-date';
import { usePositionSync } from '@client/features/reading/use-position-sync';
import { usePrefs } from '@client/features/reading/use-prefs';
import { isApiStatus } from '@client/lib/api-errors';
import NotFoundPage from './not-found';

const BACK = { href: '/profile#library', label: 'Your library' };

export default function ReadPage() {
  const params = useParams();
  const bookId = Number(params.bookId);
  const format = params.format === 'ebook' || params.format === 'pdf' ? (params.format as ContentFormat) : null;
  const valid = Number.isSafeInteger(bookId) && bookId > 0 && format !== null;
  const [prefs, setPrefs] = usePrefs();
  const sync = usePositionSync(valid ? bookId : null, format);
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
          onLocation={(l) => sync.report(l.cfi, l.fraction)}
          onExternalLink={(href) => window.open(href, '_blank', 'noopener,noreferrer')}
        />
      ) : (
        <PdfReader {...readerProps(opened.data)} onLocation={(l) => sync.report(String(l.page), l.page / l.pages)} />
      )}
    </div>
  );
}
