/** What the reading room says instead of a book: not signed in, not owned, not out yet, not found, or failed. */
import type { ReactNode } from 'react';
import { BookOpen, CalendarClock, LogIn } from 'lucide-react';
import { preOrderNotice } from '@shared/schemas/pre-orders';
import { buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';
import { ContentError } from '../api';

/** The code the server gives a pre-ordered book before its release (the one release rule). */
export const isNotReleased = (error: unknown) => error instanceof ContentError && error.code === 'NOT_RELEASED';

/**
 * `availableAt`: a pre-ordered book's release date, from the library row (the page looks it up); until it
 * is known, the server's own "Available on {date}" says it.
 */
export function RoomMessage({ error, availableAt }: { error: unknown; availableAt?: string | null }) {
  const status = error instanceof ContentError ? error.status : 0;
  if (isNotReleased(error)) {
    return (
      <Frame
        title={availableAt ? preOrderNotice(availableAt) : (error as ContentError).message}
        text="Your copy is reserved. It opens here on release day, and we will email you when it is ready."
        icon={<CalendarClock aria-hidden="true" className="size-10 text-blood-400" />}
      />
    );
  }
  const [title, text] =
    status === 401
      ? ['Please log in', 'Log in to read and listen to the books in your library.']
      : status === 403
        ? ['Not in your library', 'This format is not in your library yet.']
        : status === 404
          ? ['Not available', 'This book is not available to read online right now.']
          : ['Something went wrong', 'The book could not be opened. Please try again in a moment.'];
  return (
    <Frame title={title} text={text}>
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
    </Frame>
  );
}

function Frame({ title, text, icon, children }: { title: string; text: string; icon?: ReactNode; children?: ReactNode }) {
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      {icon}
      <h1 className="font-display text-3xl font-semibold text-bone-50">{title}</h1>
      <p className="text-bone-300" role="alert">
        {text}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        {children}
        <Link to="/profile#library" className={buttonClasses('outline', 'md')}>
          <BookOpen aria-hidden="true" /> Your library
        </Link>
      </div>
    </section>
  );
}
