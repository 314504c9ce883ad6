/**
 * /free/{slug}/confirm?token (decision 0097): the page the free book's mail opens. Opening it changes nothing
 * (mail scanners open links too); only the reader's press of the button posts the token, which puts the book
 * in their library, confirms the subscription and signs them in, as an emailed sign-in link does. The page
 * then offers the library, reading or listening now and, for an e-book, Send to Kindle.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { BookOpen, CheckCircle2, Gift, Headphones, Library } from 'lucide-react';
import { FREE_BOOK_MESSAGES, type FreeBookConfirmAnswer } from '@shared/schemas/free-books';
import { PageShell } from '@client/components/layout/page-shell';
import { PressToUseLink, RefusedLink } from '@client/components/layout/one-use-link';
import { buttonClasses } from '@client/components/ui/button';
import { afterSignIn } from '@client/features/auth/account-calls';
import { BookCover } from '@client/features/catalogue/components/book-cover';
import { SendToKindleButton } from '@client/features/copies/components/send-to-kindle';
import { confirmFreeBook, useFreeBookPage } from '@client/features/free-books/api';
import { ApiError, NO_ANSWER_MESSAGE as NO_ANSWER, errorMessage, isFinalRefusal } from '@client/lib/api-errors';
import { Link, useParams, useSearchParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';

type View =
  | { kind: 'ready' }
  | { kind: 'confirming' }
  | { kind: 'done'; answer: FreeBookConfirmAnswer }
  /** The server refused the link: pressing again cannot help. */
  | { kind: 'refused'; status: number; message: string }
  /** No answer (offline, busy): the button stays, to try again. */
  | { kind: 'failed'; message: string };

function Done({ answer }: { answer: FreeBookConfirmAnswer }) {
  const { book, format } = answer;
  const open =
    format === 'audiobook'
      ? { to: `/listen/${book.id}`, label: 'Listen now', icon: Headphones }
      : { to: `/read/${book.id}/${format}`, label: 'Read now', icon: BookOpen };
  return (
    <div className="grid gap-8 sm:grid-cols-[9rem_1fr] sm:items-start">
      <div className="mx-auto w-36 sm:w-full">
        <BookCover src={book.coverImage} title={book.title} sizes="9rem" eager />
      </div>
      <div className="grid gap-5">
        <p role="status" className="flex items-start gap-3 text-lg text-bone-100">
          <CheckCircle2 aria-hidden="true" className="mt-1 size-5 shrink-0 text-emerald-400" />
          {answer.message}
        </p>
        <p className="text-bone-300">
          {book.title} ({answer.formatLabel}) is yours to keep. You are signed in; set a password any time in Account Details, or sign in
          later with a link by email.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to="/profile#library" className={buttonClasses('primary', 'md')}>
            <Library aria-hidden="true" />
            Open your library
          </Link>
          <Link to={open.to} className={buttonClasses('outline', 'md')}>
            <open.icon aria-hidden="true" />
            {open.label}
          </Link>
          {format === 'ebook' ? <SendToKindleButton bookId={book.id} title={book.title} /> : null}
        </div>
      </div>
    </div>
  );
}

export default function FreeBookConfirmPage() {
  useDocumentTitle('Get your free book');
  const slug = useParams().slug ?? '';
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const page = useFreeBookPage(slug);
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>({ kind: 'ready' });

  const confirm = async () => {
    setView({ kind: 'confirming' });
    try {
      const answer = await confirmFreeBook(token);
      await afterSignIn(queryClient, answer.token);
      setView({ kind: 'done', answer });
    } catch (error) {
      if (error instanceof ApiError && isFinalRefusal(error.status)) {
        setView({ kind: 'refused', status: error.status, message: errorMessage(error, FREE_BOOK_MESSAGES.confirmUnknown) });
      } else setView({ kind: 'failed', message: errorMessage(error, NO_ANSWER) });
    }
  };

  if (view.kind === 'done') {
    return (
      <PageShell eyebrow="Your free book" title="The book is yours">
        <Done answer={view.answer} />
      </PageShell>
    );
  }

  if (!token || view.kind === 'refused') {
    // A used link means the book was claimed: signing in shows it. Any other refusal is mended by asking again.
    const used = view.kind === 'refused' && view.status === 409 && view.message === FREE_BOOK_MESSAGES.confirmUsed;
    return (
      <RefusedLink eyebrow="Your free book" title="Get your free book" message={view.kind === 'refused' ? view.message : FREE_BOOK_MESSAGES.confirmIncomplete}>
        {used ? (
          <Link to="/login" className={buttonClasses('outline', 'md', 'w-fit')}>
            Go to Sign In
          </Link>
        ) : (
          <Link to={`/free/${encodeURIComponent(slug)}`} className={buttonClasses('outline', 'md', 'w-fit')}>
            Ask for the book again
          </Link>
        )}
      </RefusedLink>
    );
  }

  const book = page.data?.book;
  return (
    <PressToUseLink
      eyebrow="Your free book"
      title="Get your free book"
      intro={`Press the button to confirm your address${book ? ` and put ${book.title} in your library` : ''}. It works once.`}
      icon={Gift}
      label="Get my free book"
      busyLabel="Confirming..."
      busy={view.kind === 'confirming'}
      failure={view.kind === 'failed' ? view.message : null}
      note="If you did not ask for this book, close this page: nothing happens until you press the button."
      onPress={() => void confirm()}
    >
      {book ? (
        <div className="mb-2 w-28">
          <BookCover src={book.coverImage} title={book.title} sizes="7rem" eager />
        </div>
      ) : null}
    </PressToUseLink>
  );
}
