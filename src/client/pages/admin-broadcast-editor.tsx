/**
 * /admin/newsletter/new and /admin/newsletter/:id: write a broadcast in the post editor, choose its
 * audience (its size shown before sending), preview it at desktop and phone width, send a test, then send
 * now or at a time (decision 0077). `?post=ID` starts from a blog post ("Send this post").
 */
import { useEffect, useRef, useState } from 'react';
import { ALL_FORMATS, FORMAT_LABELS } from '@shared/constants';
import { AUDIENCE_LABELS, NO_OPEN_TRACKING_NOTE, type Audience, type AudienceKind, type Broadcast } from '@shared/schemas/broadcasts';
import { Link, useNavigate, useParams, useSearchParams } from '@client/lib/router';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { toast } from '@client/components/ui/toast-store';
import { useBooks, usePost } from '@client/features/admin/api';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { fetchAudienceSize, fetchPreview, useBroadcast, useBroadcastActions } from '@client/features/admin/newsletter/api';
import { BROADCAST_STATUS_LABELS } from '@client/features/admin/newsletter/labels';
import { LinkClicks } from '@client/features/admin/newsletter/link-clicks';
import { RichTextEditor } from '@client/features/admin/posts/rich-text-editor';
import { errorText, fieldErrors } from '@client/lib/api-errors';
import { formatCount, formatDateTime } from '@client/lib/format';
import { countOf } from '@client/lib/plural';

interface Draft {
  subject: string;
  previewText: string;
  body: string;
  kind: AudienceKind;
  bookId: string;
  format: string;
  postId: number | null;
}
const EMPTY: Draft = { subject: '', previewText: '', body: '', kind: 'all', bookId: '', format: 'ebook', postId: null };

function audienceOf(d: Draft): Audience | null {
  if (d.kind === 'owners') return d.bookId ? { kind: 'owners', bookId: Number(d.bookId), format: d.format as 'ebook' } : null;
  if (d.kind === 'pre-order') return d.bookId ? { kind: 'pre-order', bookId: Number(d.bookId) } : null;
  return { kind: d.kind };
}

function draftOf(b: Broadcast): Draft {
  const a = b.audience;
  return {
    subject: b.subject,
    previewText: b.previewText,
    body: b.body,
    kind: a.kind,
    bookId: a.kind === 'owners' || a.kind === 'pre-order' ? String(a.bookId) : '',
    format: a.kind === 'owners' ? a.format : 'ebook',
    postId: b.postId,
  };
}

const WIDTHS = { desktop: 640, phone: 375 } as const;

export default function AdminBroadcastEditorPage({ mode }: { mode: 'create' | 'edit' }) {
  const params = useParams();
  const [search] = useSearchParams();
  const id = mode === 'edit' ? Number(params.id) : null;
  const fromPost = mode === 'create' && search.get('post') ? Number(search.get('post')) : null;
  const broadcast = useBroadcast(id);
  const post = usePost(fromPost);
  const books = useBooks();
  const actions = useBroadcastActions(id);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [size, setSize] = useState<number | null>(null);
  const [preview, setPreview] = useState<{ html: string; width: keyof typeof WIDTHS } | null>(null);
  const [sendAt, setSendAt] = useState('');
  const loaded = useRef(false);

  useEffect(() => {
    if (loaded.current) return;
    if (broadcast.data) {
      loaded.current = true;
      setDraft(draftOf(broadcast.data));
    } else if (post.data) {
      loaded.current = true;
      setDraft({ ...EMPTY, subject: post.data.title, previewText: post.data.excerpt.slice(0, 200), body: post.data.content, postId: post.data.id });
    }
  }, [broadcast.data, post.data]);

  const audience = audienceOf(draft);
  const audienceKey = JSON.stringify(audience);
  useEffect(() => {
    let live = true;
    setSize(null);
    if (audience) fetchAudienceSize(audience).then((n) => live && setSize(n), () => undefined);
    return () => {
      live = false;
    };
    // The key stands for the audience object, which is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [audienceKey]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const status = broadcast.data?.status ?? 'draft';
  const editable = status === 'draft';

  const save = async (): Promise<Broadcast | null> => {
    const local: Record<string, string> = {};
    if (!draft.subject.trim()) local.subject = 'Subject is required';
    if (!draft.body.trim()) local.body = 'Body is required';
    if (!audience) local.bookId = 'Choose a book';
    setErrors(local);
    if (Object.keys(local).length || !audience) return null;
    try {
      const saved = await actions.save.mutateAsync({ subject: draft.subject, previewText: draft.previewText, body: draft.body, audience, postId: draft.postId });
      toast({ title: 'Broadcast saved', description: 'Saved as a draft.' });
      if (id === null) navigate(`/admin/newsletter/${saved.id}`, { replace: true });
      return saved;
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({ title: 'Error', description: `Failed to save the broadcast: ${errorText(error)}`, variant: 'destructive' });
      return null;
    }
  };

  const showPreview = async (width: keyof typeof WIDTHS) => {
    try {
      const { html } = await fetchPreview({ subject: draft.subject, previewText: draft.previewText, body: draft.body });
      setPreview({ html, width });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      const result = await what();
      const message = (result as { message?: string } | undefined)?.message;
      toast({ title: done, description: message });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  const field = (name: string) => ({
    id: `broadcast-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `broadcast-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errors[name] ? (
      <p id={`broadcast-${name}-error`} className="text-sm text-blood-300">
        {errors[name]}
      </p>
    ) : null;

  const b = broadcast.data;
  const counts = b?.counts;
  const done = counts ? counts.sent + counts.failed + counts.bounced + counts.suppressed : 0;

  const form = (
    <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 md:p-8">
      {b && !editable ? (
        <div className="grid gap-2" aria-live="polite">
          <p className="text-bone-100">
            {BROADCAST_STATUS_LABELS[b.status]}
            {b.status === 'scheduled' && b.sendAt ? ` for ${formatDateTime(b.sendAt)}` : null}
            {b.status === 'sent' && b.finishedAt ? ` ${formatDateTime(b.finishedAt)}` : null}
          </p>
          {counts && counts.recipients > 0 ? (
            <>
              <progress className="h-2 w-full accent-blood-500" max={counts.recipients} value={done} aria-label="Sending progress" />
              <dl className="grid grid-cols-3 gap-2 text-sm text-bone-300 md:grid-cols-7">
                {(['recipients', 'sent', 'waiting', 'failed', 'bounced', 'suppressed', 'unsubscribed'] as const).map((k) => (
                  <div key={k}>
                    <dt className="capitalize">{k}</dt>
                    <dd className="text-bone-50">{formatCount(counts[k])}</dd>
                  </div>
                ))}
              </dl>
            </>
          ) : null}
          <LinkClicks links={b.links} />
        </div>
      ) : null}
      <fieldset disabled={!editable} className="grid gap-6">
        <div className="grid content-start gap-2">
          <Label htmlFor="broadcast-subject">Subject</Label>
          <Input {...field('subject')} value={draft.subject} onChange={(e) => set('subject', e.target.value)} />
          {error('subject')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="broadcast-previewText">Preview text</Label>
          <Input {...field('previewText')} value={draft.previewText} onChange={(e) => set('previewText', e.target.value)} />
          {error('previewText') ?? <p className="text-xs text-bone-400">Shown after the subject in most inboxes.</p>}
        </div>
        <div className="grid content-start gap-2">
          <Label id="broadcast-body-label">Body</Label>
          <RichTextEditor
            id="broadcast-body"
            labelId="broadcast-body-label"
            value={draft.body}
            onChange={(v) => set('body', v)}
            invalid={!!errors.body}
            describedBy={errors.body ? 'broadcast-body-error' : undefined}
          />
          {error('body')}
        </div>
        <div className="grid gap-6 md:grid-cols-3">
          <div className="grid content-start gap-2">
            <Label htmlFor="broadcast-audience">Audience</Label>
            <Select id="broadcast-audience" value={draft.kind} onChange={(e) => set('kind', e.target.value as AudienceKind)}>
              {(Object.keys(AUDIENCE_LABELS) as AudienceKind[]).map((k) => (
                <option key={k} value={k}>
                  {AUDIENCE_LABELS[k]}
                </option>
              ))}
            </Select>
          </div>
          {draft.kind === 'owners' || draft.kind === 'pre-order' ? (
            <div className="grid content-start gap-2">
              <Label htmlFor="broadcast-bookId">Book</Label>
              <Select {...field('bookId')} value={draft.bookId} onChange={(e) => set('bookId', e.target.value)}>
                <option value="">Choose a book</option>
                {(books.data ?? []).map((book) => (
                  <option key={book.id} value={book.id}>
                    {book.title}
                  </option>
                ))}
              </Select>
              {error('bookId')}
            </div>
          ) : null}
          {draft.kind === 'owners' ? (
            <div className="grid content-start gap-2">
              <Label htmlFor="broadcast-format">Format</Label>
              <Select id="broadcast-format" value={draft.format} onChange={(e) => set('format', e.target.value)}>
                {ALL_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {FORMAT_LABELS[f]}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
        </div>
        <p className="text-sm text-bone-200" aria-live="polite">
          {size === null ? 'Counting the audience...' : `This audience is ${countOf(size, 'confirmed subscriber')}.`}
        </p>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        {editable ? (
          <Button onClick={() => void save()} disabled={actions.save.isPending}>
            {actions.save.isPending ? 'Saving...' : 'Save draft'}
          </Button>
        ) : null}
        <Button variant="outline" onClick={() => void showPreview('desktop')}>
          Preview at desktop width
        </Button>
        <Button variant="outline" onClick={() => void showPreview('phone')}>
          Preview at phone width
        </Button>
        {id !== null ? (
          <Button variant="outline" disabled={actions.test.isPending} onClick={() => void run(() => actions.test.mutateAsync(), 'Test sent')}>
            Send a test
          </Button>
        ) : null}
        <Link to="/admin/newsletter" className={buttonClasses('outline')}>
          Back to the newsletter
        </Link>
      </div>
      {id !== null && editable ? (
        <div className="grid gap-3 border-t border-ink-700 pt-6 md:grid-cols-[auto_auto_1fr] md:items-end">
          <Button
            disabled={actions.send.isPending}
            onClick={() => void run(async () => (await save()) && actions.send.mutateAsync(undefined), 'Sending')}
          >
            Send now
          </Button>
          <div className="grid gap-2">
            <Label htmlFor="broadcast-sendAt">Or at</Label>
            <Input id="broadcast-sendAt" type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />
          </div>
          <Button
            variant="outline"
            disabled={!sendAt || actions.send.isPending}
            onClick={() => void run(async () => (await save()) && actions.send.mutateAsync(new Date(sendAt).toISOString()), 'Scheduled')}
          >
            Schedule
          </Button>
        </div>
      ) : null}
      {status === 'scheduled' ? (
        <div>
          <Button variant="outline" onClick={() => void run(() => actions.cancel.mutateAsync(), 'Cancelled')}>
            Cancel
          </Button>
        </div>
      ) : null}
      {preview ? (
        <div className="grid gap-2">
          <p className="text-sm text-bone-300">
            Preview at {preview.width} width ({WIDTHS[preview.width]} px). Links are not followed here.
          </p>
          {/* No scripts, no same origin: the preview is the mail, not a page of the site. */}
          <iframe
            title={`Preview at ${preview.width} width`}
            sandbox=""
            srcDoc={preview.html}
            style={{ width: WIDTHS[preview.width], maxWidth: '100%' }}
            className="h-[640px] rounded border border-ink-700 bg-white"
          />
        </div>
      ) : null}
      <p className="text-xs text-bone-400">
        Every mail carries the reader&apos;s own unsubscribe link and one-click unsubscribe headers. Addresses that unsubscribed,
        bounced or complained are never sent to.
      </p>
      <p className="text-xs text-bone-400">{NO_OPEN_TRACKING_NOTE}</p>
    </div>
  );

  return (
    <AdminFrame title={mode === 'create' ? 'New broadcast' : 'Broadcast'}>
      {id !== null ? <QueryState query={broadcast}>{() => form}</QueryState> : form}
    </AdminFrame>
  );
}
