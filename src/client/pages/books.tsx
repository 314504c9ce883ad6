/** /books: the catalogue, every published book with its series, formats and prices (decision 0075). */
import { PageShell } from '@client/components/layout/page-shell';
import { Skeleton } from '@client/components/ui/skeleton';
import { Alert } from '@client/components/ui/alert';
import { Link } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { bookPath, type CatalogueBook } from '@shared/schemas/catalogue';
import { useCatalogue } from '@client/features/catalogue/api';
import { BookCover } from '@client/features/catalogue/components/book-cover';
import { SeriesLine, releaseNote } from '@client/features/catalogue/components/book-meta';
import { BundleCards } from '@client/features/checkout/components/bundle-cards';

function BookCard({ book }: { book: CatalogueBook }) {
  const note = releaseNote(book);
  return (
    <article aria-labelledby={`book-${book.id}-title`} className="group relative flex h-full flex-col gap-6 rounded-2xl border border-ink-700 bg-ink-900/70 p-5 transition hover:border-blood-700/70 sm:flex-row sm:p-6">
      <div className="mx-auto w-40 shrink-0 sm:mx-0 sm:w-36">
        <BookCover src={book.coverImage} title={book.title} sizes="10rem" className="transition group-hover:-translate-y-1" />
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <SeriesLine book={book} />
        <h2 id={`book-${book.id}-title`} className="mt-1 font-display text-2xl font-semibold text-bone-50">
          {/* The whole card is the link, so the title carries it for screen readers and the card's area for the rest. */}
          <Link to={bookPath(book.slug)} className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none">
            {book.title}
          </Link>
        </h2>
        <p className="mt-2 leading-relaxed text-bone-300 italic">{book.tagline}</p>
        <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-bone-400">
          {book.publisher} · {book.yearPublished}
          {note ? <span className="rounded-full border border-blood-700/60 px-2 py-0.5 text-xs whitespace-nowrap text-blood-300">{note}</span> : null}
        </p>
        {book.formats.length > 0 ? (
          <ul aria-label={`Formats of ${book.title}`} className="mt-auto flex flex-wrap gap-2 pt-5">
            {book.formats.map((f) => (
              <li key={f.id} className="rounded-md border border-ink-600 bg-ink-950/60 px-3 py-1.5 text-sm text-bone-200">
                {f.title} <span className="font-semibold text-bone-50 tabular-nums">{f.displayPrice}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-auto pt-5 text-sm text-bone-400">Not on sale yet</p>
        )}
      </div>
    </article>
  );
}

export default function BooksPage() {
  const catalogue = useCatalogue();
  useDocumentTitle('Books');
  return (
    <PageShell eyebrow="The catalogue" title="Books" intro="Every novel by Callum Reyes, in hardcover, paperback, e-book and audiobook." width="wide">
      {catalogue.isPending ? (
        <div role="status" aria-label="Loading books" className="grid gap-6 lg:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-64 w-full" />
          ))}
        </div>
      ) : catalogue.isError ? (
        <Alert variant="destructive" title="Could not load the books">
          Please refresh the page and try again.
        </Alert>
      ) : catalogue.data.books.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-600 p-10 text-center text-bone-300">No books are on sale at the moment</p>
      ) : (
        <ul className="grid gap-6 lg:grid-cols-2">
          {catalogue.data.books.map((book) => (
            <li key={book.id}>
              <BookCard book={book} />
            </li>
          ))}
        </ul>
      )}
      {/* Formats of one or more books at one price, priced for the reader ("Complete your set"). */}
      {catalogue.data?.books.length ? <BundleCards headingId="catalogue-bundles-title" headingLevel={2} /> : null}
    </PageShell>
  );
}
