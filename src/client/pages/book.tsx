/**
 * /books/{slug}: one published book, its synopsis and the purchase section with its own formats and
 * prices (decision 0075). An unknown book is the not-found page, as the server answers it (404).
 */
import { ChevronLeft } from 'lucide-react';
import { Skeleton } from '@client/components/ui/skeleton';
import { Alert } from '@client/components/ui/alert';
import { Link, useParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { isMissingBook, useBookPage } from '@client/features/catalogue/api';
import { BookCover } from '@client/features/catalogue/components/book-cover';
import { SeriesLine, releaseNote } from '@client/features/catalogue/components/book-meta';
import { PurchaseSection } from '@client/features/checkout/components/purchase-section';
import NotFoundPage from './not-found';

export default function BookPage() {
  const slug = useParams().slug ?? '';
  const page = useBookPage(slug);
  useDocumentTitle(page.data?.title);
  if (isMissingBook(page.error)) return <NotFoundPage />;
  const book = page.data;
  const note = book ? releaseNote(book) : null;
  return (
    <>
      <section aria-labelledby="book-title" className="relative overflow-hidden border-b border-ink-800/70">
        <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(800px_400px_at_75%_20%,rgb(143_13_24/0.16),transparent_70%)]" />
        <div className="relative mx-auto max-w-7xl px-4 py-12 sm:px-6 md:py-20">
          <Link to="/books" className="inline-flex items-center gap-1 text-sm text-bone-400 transition hover:text-bone-100">
            <ChevronLeft aria-hidden="true" className="size-4" />
            All books
          </Link>
          {page.isError ? (
            <Alert variant="destructive" title="Could not load the book" className="mt-8">
              Please refresh the page and try again.
            </Alert>
          ) : (
            <div className="mt-8 grid items-start gap-10 md:grid-cols-[minmax(0,18rem)_1fr] lg:gap-16">
              <div className="mx-auto w-full max-w-[14rem] md:max-w-none">
                {book ? <BookCover src={book.coverImage} title={book.title} sizes="(min-width: 768px) 18rem, 14rem" eager className="md:-rotate-1" /> : <Skeleton className="aspect-[2/3] w-full" />}
              </div>
              <div className="min-w-0">
                {book ? (
                  <>
                    <SeriesLine book={book} className="text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase" />
                    <h1 id="book-title" className="mt-2 font-display text-4xl font-semibold tracking-tight text-bone-50 md:text-6xl">
                      {book.title}
                    </h1>
                    <p className="mt-4 font-display text-xl leading-snug text-bone-200 italic md:text-2xl">{book.tagline}</p>
                    <p className="mt-4 text-sm text-bone-400">
                      by Callum Reyes · {book.publisher} · {book.yearPublished}
                    </p>
                    {note ? <p className="mt-3 inline-block rounded-full border border-blood-700/60 px-3 py-1 text-sm text-blood-300">{note}</p> : null}
                    <div className="mt-8 max-w-2xl space-y-4 text-lg leading-relaxed text-bone-300">
                      {book.synopsis.split(/\n{2,}/).map((p, i) => (
                        <p key={i}>{p}</p>
                      ))}
                    </div>
                    {book.formats.length > 0 ? (
                      <a href="#purchase" className="mt-8 inline-flex items-center rounded-md bg-blood-600 px-6 py-3 font-semibold text-bone-50 shadow-lg shadow-blood-900/40 transition hover:bg-blood-500">
                        Get your copy from {book.formats.reduce((low, f) => (f.price < low.price ? f : low)).displayPrice}
                      </a>
                    ) : null}
                  </>
                ) : (
                  <div role="status" aria-label="Loading the book" className="space-y-4">
                    <Skeleton className="h-12 w-2/3" />
                    <Skeleton className="h-6 w-1/2" />
                    <Skeleton className="h-5 w-full" />
                    <Skeleton className="h-5 w-11/12" />
                  </div>
                )}
              </div>
            </div>
          )}
        </div>
      </section>
      {book ? <PurchaseSection slug={book.slug} /> : null}
    </>
  );
}
