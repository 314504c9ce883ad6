/**
 * /review-copies/{slug} (decision 0099): the application form of a review-copy campaign, or why it takes no
 * applications now. A signed-in reader approved for this campaign sees "Post your review" instead.
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { BookOpen, Link2, MailCheck, Send } from 'lucide-react';
import { REVIEW_PROFILE_LINKS_MAX, applicationRequestSchema, reviewLinkRequestSchema, type MyReviewCopy, type PublicCampaign } from '@shared/schemas/review-copies';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Skeleton } from '@client/components/ui/skeleton';
import { Textarea } from '@client/components/ui/textarea';
import { useAuthStatus } from '@client/features/auth/api';
import { MY_REVIEW_COPIES_KEY, applyForCopy, postReviewLink, useCampaign, useMyReviewCopies } from '@client/features/review-copies/api';
import { ApiError, errorMessage, fieldErrors, NO_ANSWER_MESSAGE as NO_ANSWER } from '@client/lib/api-errors';
import { formatShortDate } from '@client/lib/format';
import { Link, useParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';

const STATE_NOTICE: Record<Exclude<PublicCampaign['state'], 'open'>, (c: PublicCampaign) => { title: string; text: string }> = {
  upcoming: (c) => ({ title: 'Not open yet', text: `Applications open on ${formatShortDate(c.opensAt)}.` }),
  closed: () => ({ title: 'Applications are closed', text: 'This campaign has ended. Thank you for your interest.' }),
  full: () => ({ title: 'All copies are taken', text: 'Every review copy of this campaign has been given out.' }),
};

type Errors = Record<string, string>;

export function ApplicationForm({ campaign }: { campaign: PublicCampaign }) {
  const [values, setValues] = useState({ name: '', email: '', reviewsWhere: '', answer: '' });
  const [links, setLinks] = useState<string[]>(['']);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const body = { ...values, profileLinks: links.map((l) => l.trim()).filter(Boolean) };
    const parsed = applicationRequestSchema.safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      setDone((await applyForCopy(campaign.slug, parsed.data)).message);
    } catch (error) {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFormError(error instanceof ApiError ? errorMessage(error, NO_ANSWER) : NO_ANSWER);
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <div role="status" className="grid gap-3 rounded-2xl border border-emerald-500/30 bg-emerald-950/30 p-6">
        <p className="flex items-center gap-2 font-display text-2xl font-semibold text-bone-50">
          <MailCheck aria-hidden="true" className="size-6 text-emerald-400" />
          Application sent
        </p>
        <p className="leading-relaxed text-bone-200">{done}</p>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Apply for a review copy" className="grid gap-5 rounded-2xl border border-ink-700 bg-ink-900/80 p-5 sm:p-6">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Your name" error={errors.name}>
          <Input autoComplete="name" value={values.name} onChange={set('name')} />
        </FormField>
        <FormField label="Email" error={errors.email} hint="Your copy and a sign-in link go to this address.">
          <Input type="email" autoComplete="email" inputMode="email" value={values.email} onChange={set('email')} />
        </FormField>
      </div>
      <FormField label="Where do you review?" error={errors.reviewsWhere} hint="A blog, a shop, Goodreads, a channel...">
        <Input value={values.reviewsWhere} onChange={set('reviewsWhere')} />
      </FormField>
      <FormField label={campaign.question} error={errors.answer}>
        <Textarea rows={4} value={values.answer} onChange={set('answer')} />
      </FormField>
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium text-bone-100">Profile links (up to {REVIEW_PROFILE_LINKS_MAX}, optional)</legend>
        {links.map((link, i) => (
          <FormField key={i} label={`Profile link ${i + 1}`} error={errors[`profileLinks.${i}`]}>
            <Input type="url" inputMode="url" placeholder="https://" value={link} onChange={(e) => setLinks((all) => all.map((l, j) => (j === i ? e.target.value : l)))} />
          </FormField>
        ))}
        {errors.profileLinks ? <p className="text-sm text-blood-300">{errors.profileLinks}</p> : null}
        {links.length < REVIEW_PROFILE_LINKS_MAX ? (
          <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => setLinks((all) => [...all, ''])}>
            <Link2 aria-hidden="true" />
            Add another link
          </Button>
        ) : null}
      </fieldset>
      {formError ? (
        <p role="alert" className="text-sm text-blood-300">
          {formError}
        </p>
      ) : null}
      <Button type="submit" size="lg" className="w-full sm:w-fit" disabled={sending} aria-busy={sending || undefined}>
        <Send aria-hidden="true" />
        {sending ? 'Sending...' : 'Apply for a review copy'}
      </Button>
    </form>
  );
}

export function PostReviewForm({ copy }: { copy: MyReviewCopy }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = reviewLinkRequestSchema.safeParse({ url });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setSending(true);
    try {
      const copies = await postReviewLink(copy.id, parsed.data.url);
      queryClient.setQueryData(MY_REVIEW_COPIES_KEY, copies);
      setUrl('');
      setSaved(true);
    } catch (err) {
      setError(fieldErrors(err).url ?? (err instanceof ApiError ? errorMessage(err, NO_ANSWER) : NO_ANSWER));
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby={`post-review-${copy.id}`} className="grid gap-4 rounded-2xl border border-ink-700 bg-ink-900/80 p-5 sm:p-6">
      <h2 id={`post-review-${copy.id}`} className="font-display text-2xl font-semibold text-bone-50">
        Post your review
      </h2>
      <p className="text-bone-300">
        Your copy of {copy.bookTitle} ({copy.formatLabel}) is in your library. Once your review is online, post its link here; the reminders stop.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link to={`/read/${copy.bookId}/${copy.format}`} className={buttonClasses('outline', 'md')}>
          <BookOpen aria-hidden="true" />
          Read now
        </Link>
        <Link to="/profile#library" className={buttonClasses('ghost', 'md')}>
          My Library
        </Link>
      </div>
      {copy.reviewLinks.length > 0 ? (
        <ul aria-label="Your review links" className="grid gap-1 text-sm">
          {copy.reviewLinks.map((l) => (
            <li key={l.url} className="break-all text-bone-200">
              <a href={l.url} rel="noopener noreferrer" target="_blank" className="underline decoration-blood-500 underline-offset-4 hover:text-bone-50">
                {l.url}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {saved ? (
        <p role="status" className="text-sm text-emerald-300">
          Thank you! Your review link is saved. We will not send you any more reminders.
        </p>
      ) : null}
      <form noValidate onSubmit={submit} aria-label="Post your review" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <FormField label="Link to your review" error={error ?? undefined}>
          <Input type="url" inputMode="url" placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} />
        </FormField>
        <Button type="submit" disabled={sending} aria-busy={sending || undefined}>
          {sending ? 'Saving...' : 'Post link'}
        </Button>
      </form>
    </section>
  );
}

export default function ReviewCopiesPage() {
  const slug = useParams().slug ?? '';
  const campaign = useCampaign(slug);
  const auth = useAuthStatus();
  const mine = useMyReviewCopies(auth.isAuthenticated === true);
  useDocumentTitle(campaign.data ? `Review copies: ${campaign.data.book.title}` : 'Review copies');
  const copy = mine.data?.find((c) => c.slug === campaign.data?.slug && c.status === 'approved');

  if (campaign.isError) {
    return (
      <PageShell width="narrow" eyebrow="Review copies" title="Campaign not found">
        <div className="grid gap-6">
          <Alert title="There is no review-copy campaign at this address.">Check the link you were given, or see the books in the catalogue.</Alert>
          <Link to="/books" className={buttonClasses('outline', 'md', 'w-fit')}>
            See all books
          </Link>
        </div>
      </PageShell>
    );
  }
  const c = campaign.data;
  return (
    <PageShell eyebrow="Review copies" title={c ? c.book.title : 'Review copies'}>
      {!c ? (
        <div role="status" aria-label="Loading the campaign" className="grid gap-4">
          <Skeleton className="h-40 w-full" />
        </div>
      ) : (
        <div className="grid gap-8 md:grid-cols-[12rem_1fr] md:items-start">
          <div className="grid gap-3">
            <img src={c.book.coverImage} alt={`Cover of ${c.book.title}`} className="w-32 rounded-md border border-ink-600 shadow-lg shadow-black/40 md:w-48" />
            <p className="text-sm text-bone-400">
              {c.formatLabel} · until {formatShortDate(c.closesAt)}
            </p>
          </div>
          <div className="grid min-w-0 gap-6">
            <p className="font-display text-xl text-bone-200 italic">{c.book.tagline}</p>
            {copy ? (
              <PostReviewForm copy={copy} />
            ) : c.state === 'open' ? (
              <>
                <p className="leading-relaxed text-bone-300">
                  Read {c.book.title} before it is out and tell your readers what you think. Approved reviewers get a personal {c.formatLabel.toLowerCase()}{' '}
                  in their library, to read in the browser, download or send to a Kindle. No password needed.
                </p>
                <ApplicationForm campaign={c} />
              </>
            ) : (
              <Alert title={STATE_NOTICE[c.state](c).title}>{STATE_NOTICE[c.state](c).text}</Alert>
            )}
          </div>
        </div>
      )}
    </PageShell>
  );
}
