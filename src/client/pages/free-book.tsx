/**
 * /free/{slug}[?source=]: the landing page of a free book for subscribers (decision 0097): the cover, the
 * author's pitch and one email box. Every address that may claim gets the same answer; the mail's link does
 * the rest. A `?source=` the server would refuse is left out rather than block the visitor.
 */
import { useState, type FormEvent } from 'react';
import { BookOpen, Gift, MailCheck, Send } from 'lucide-react';
import { freeBookClaimSchema } from '@shared/schemas/free-books';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Skeleton } from '@client/components/ui/skeleton';
import { PageShell } from '@client/components/layout/page-shell';
import { BookCover } from '@client/features/catalogue/components/book-cover';
import { claimFreeBook, isNotOffered, sourceOf, useFreeBookPage } from '@client/features/free-books/api';
import { ApiError, errorMessage, fieldErrors, NO_ANSWER_MESSAGE as NO_ANSWER } from '@client/lib/api-errors';
import { Link, useParams, useSearchParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';


type Sent = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; message: string };

function ClaimForm({ slug, source }: { slug: string; source: string | undefined }) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<Sent>({ kind: 'idle' });
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = freeBookClaimSchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      return;
    }
    setFieldError(null);
    setState({ kind: 'sending' });
    try {
      const message = await claimFreeBook(slug, { email: parsed.data.email, ...(source ? { source } : {}) });
      setState({ kind: 'sent', message });
    } catch (error) {
      setState({ kind: 'idle' });
      const fields = fieldErrors(error);
      // A refusal of this address (it left the list) is about the address: shown beside the box.
      if (fields.email) setFieldError(fields.email);
      else setFormError(error instanceof ApiError ? errorMessage(error, NO_ANSWER) : NO_ANSWER);
    }
  };

  if (state.kind === 'sent') {
    return (
      <div role="status" className="grid gap-3 rounded-2xl border border-emerald-500/30 bg-emerald-950/30 p-6">
        <p className="flex items-center gap-2 font-display text-2xl font-semibold text-bone-50">
          <MailCheck aria-hidden="true" className="size-6 text-emerald-400" />
          Check your email
        </p>
        <p className="leading-relaxed text-bone-200">{state.message}</p>
        <p className="text-sm text-bone-400">Nothing there after a few minutes? Look in your spam folder.</p>
      </div>
    );
  }

  const busy = state.kind === 'sending';
  return (
    <form noValidate onSubmit={submit} aria-label="Get the free book" className="grid gap-4 rounded-2xl border border-ink-700 bg-ink-900/80 p-6 shadow-2xl shadow-black/40 backdrop-blur">
      <div className="grid gap-2">
        <Label htmlFor="free-book-email" className="text-base text-bone-50">
          Where should we send it?
        </Label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Input
            id="free-book-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'free-book-email-error' : 'free-book-email-hint'}
            className="h-12 flex-1 text-base"
          />
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy || undefined} className="h-12 shrink-0">
            <Send aria-hidden="true" />
            {busy ? 'Sending...' : 'Send me the book'}
          </Button>
        </div>
        {fieldError ? (
          <p id="free-book-email-error" className="text-sm text-blood-300">
            {fieldError}
          </p>
        ) : null}
      </div>
      {formError ? (
        <p role="alert" className="text-sm text-blood-300">
          {formError}
        </p>
      ) : null}
      <p id="free-book-email-hint" className="text-sm leading-relaxed text-bone-400">
        We email you a link to confirm your address. Confirming puts the book in your library and joins you to the Thriller Circle
        newsletter; every issue has a one-click unsubscribe link. No password needed.
      </p>
    </form>
  );
}

export default function FreeBookPage() {
  const slug = useParams().slug ?? '';
  const [params] = useSearchParams();
  const page = useFreeBookPage(slug);
  const book = page.data?.book;
  useDocumentTitle(book ? `Free: ${book.title}` : 'Free book');

  if (isNotOffered(page.error)) {
    return (
      <PageShell width="narrow" eyebrow="Free book" title="Not on offer">
        <div className="grid gap-6">
          <Alert title="This free book is not on offer at the moment.">The author may offer it again later. Meanwhile, the other books are in the catalogue.</Alert>
          <Link to="/books" className={buttonClasses('outline', 'md', 'w-fit')}>
            See all books
          </Link>
        </div>
      </PageShell>
    );
  }

  return (
    <section aria-labelledby="free-book-title" className="relative overflow-hidden">
      <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(900px_480px_at_20%_15%,rgb(143_13_24/0.22),transparent_70%)]" />
      <div aria-hidden="true" className="absolute inset-x-0 bottom-0 h-px bg-gradient-to-r from-transparent via-blood-800/60 to-transparent" />
      <div className="relative mx-auto max-w-6xl px-4 py-12 sm:px-6 md:py-20">
        {page.isError ? (
          <Alert variant="destructive" title="Could not load the free book">
            Please refresh the page and try again.
          </Alert>
        ) : (
          <div className="grid items-center gap-10 md:grid-cols-[minmax(0,20rem)_1fr] lg:gap-16">
            <div className="relative mx-auto w-full max-w-[13rem] md:max-w-none">
              <div aria-hidden="true" className="absolute -inset-6 rounded-full bg-blood-700/20 blur-3xl" />
              {book ? (
                <BookCover src={book.coverImage} title={book.title} sizes="(min-width: 768px) 20rem, 13rem" eager className="relative md:-rotate-2" />
              ) : (
                <Skeleton className="aspect-[2/3] w-full" />
              )}
            </div>
            <div className="min-w-0">
              {page.data && book ? (
                <>
                  <p className="inline-flex items-center gap-2 rounded-full border border-blood-700/60 bg-blood-950/40 px-3 py-1 text-xs font-semibold tracking-[0.2em] text-blood-300 uppercase">
                    <Gift aria-hidden="true" className="size-4" />
                    Free {page.data.formatLabel} for the Thriller Circle
                  </p>
                  <h1 id="free-book-title" className="mt-5 font-display text-4xl font-semibold tracking-tight text-bone-50 md:text-6xl">
                    {book.title}
                  </h1>
                  <p className="mt-4 font-display text-xl leading-snug text-bone-200 italic md:text-2xl">{book.tagline}</p>
                  <p className="mt-3 text-sm text-bone-400">by Callum Reyes</p>
                  <div className="mt-6 max-w-2xl space-y-4 text-lg leading-relaxed text-bone-300">
                    {page.data.pitch.split(/\n{2,}/).map((p, i) => (
                      <p key={i}>{p}</p>
                    ))}
                  </div>
                  <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-bone-300">
                    <li className="flex items-center gap-2">
                      <BookOpen aria-hidden="true" className="size-4 text-blood-400" />
                      Read it here, download it, or send it to your Kindle
                    </li>
                    <li className="flex items-center gap-2">
                      <MailCheck aria-hidden="true" className="size-4 text-blood-400" />
                      Just your email: no password, no card
                    </li>
                  </ul>
                  <div className="mt-8 max-w-xl">
                    <ClaimForm slug={page.data.slug} source={sourceOf(params)} />
                  </div>
                </>
              ) : (
                <div role="status" aria-label="Loading the free book" className="space-y-4">
                  <Skeleton className="h-6 w-48" />
                  <Skeleton className="h-12 w-2/3" />
                  <Skeleton className="h-6 w-1/2" />
                  <Skeleton className="h-5 w-full" />
                  <Skeleton className="h-32 w-full max-w-xl" />
                </div>
              )}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
