/** What the reading room says instead of a book: not signed in, not owned, not found, or failed. */
import { BookOpen, LogIn } from 'lucide-react';
import { buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';
import { ContentError } from '../api';

export function RoomMessage({ error }: { error: unknown }) {
  const status = error instanceof ContentError ? error.status : 0;
  const [title, text] =
    status === 401
      ? ['Please log in', 'Log in to read and listen to the books in your library.']
      : status === 403
        ? ['Not in your library', 'This format is not in your library yet.']
        : status === 404
          ? ['Not available', 'This book is not available to read online right now.']
          : ['Something went wrong', 'The book could not be opened. Please try again in a moment.'];
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="font-display text-3xl font-semibold text-bone-50">{title}</h1>
      <p className="text-bone-300" role="alert">
        {text}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        {status === 401 ? (
          <Link to="/login" className={buttonClasses('primary', 'md')}>
            <LogIn aria-hidden="true" /> Log in
          </Link>
        ) : null}
        {status === 403 ? (
          <Link to="/#purchase" className={buttonClasses('primary', 'md')}>
            Buy the book
          </Link>
        ) : null}
        <Link to="/profile#library" className={buttonClasses('outline', 'md')}>
          <BookOpen aria-hidden="true" /> Your library
        </Link>
      </div>
    </section>
  );
}
