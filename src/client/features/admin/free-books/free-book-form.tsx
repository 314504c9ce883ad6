/**
 * Create or edit one free book: the book, the digital format, the address /free/{slug}, the pitch and whether
 * it is on offer. Checked with the shared schema, so the messages are the server's.
 */
import { useState } from 'react';
import { DIGITAL_FORMATS, type DigitalFormat, formatLabel } from '@shared/constants';
import { slugify } from '@shared/slug';
import { type AdminFreeBook, FREE_BOOK_PITCH_MAX, type FreeBookInput, freeBookInputSchema } from '@shared/schemas/free-books';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { Textarea } from '@client/components/ui/textarea';
import { type FormErrors, errorsOfIssues, errorsOfRefusal } from '../components/form-errors';
import { FormFooter } from '@client/components/ui/form-footer';
import { fieldMessages } from '@client/components/ui/field-messages';

interface Draft {
  bookId: string;
  format: DigitalFormat;
  slug: string;
  pitch: string;
  active: boolean;
}

const draftOf = (g: AdminFreeBook | null): Draft =>
  g ? { bookId: String(g.bookId), format: g.format, slug: g.slug, pitch: g.pitch, active: g.active } : { bookId: '', format: 'ebook', slug: '', pitch: '', active: true };

const toInput = (d: Draft): FreeBookInput => ({ bookId: d.bookId === '' ? Number.NaN : Number(d.bookId), format: d.format, slug: d.slug, pitch: d.pitch, active: d.active });

const FIELDS = ['bookId', 'format', 'slug', 'pitch'] as const;
type Errors = FormErrors<(typeof FIELDS)[number]>;

export function FreeBookForm({
  freeBook,
  books,
  saving,
  onSave,
  onCancel,
}: {
  freeBook: AdminFreeBook | null;
  books: Array<{ id: number; title: string }>;
  saving: boolean;
  onSave: (input: FreeBookInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(freeBook));
  const [errors, setErrors] = useState<Errors>({});
  const prefix = freeBook ? `free-book-${freeBook.id}` : 'free-book-new';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = freeBookInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(errorsOfIssues(FIELDS, parsed.error.issues));
      return;
    }
    setErrors({});
    try {
      await onSave(input);
      if (!freeBook) setDraft(draftOf(null));
    } catch (error) {
      setErrors(errorsOfRefusal(FIELDS, error));
    }
  };

  const { describedBy, invalid, message } = fieldMessages(prefix, errors);

  const chooseBook = (value: string) =>
    setDraft((d) => {
      const title = books.find((b) => String(b.id) === value)?.title;
      // A new offer's address starts from the book's title; the author may change it.
      return { ...d, bookId: value, slug: !freeBook && d.slug === '' && title ? slugify(title) : d.slug };
    });

  return (
    <form noValidate onSubmit={submit} aria-label={freeBook ? `Edit /free/${freeBook.slug}` : 'New free book'} className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-book`}>Book</Label>
          <Select id={`${prefix}-book`} value={draft.bookId} aria-invalid={invalid('bookId')} aria-describedby={describedBy('bookId')} onChange={(e) => chooseBook(e.target.value)}>
            <option value="">Choose a book</option>
            {books.map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </Select>
          {message('bookId')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-format`}>Format</Label>
          <Select id={`${prefix}-format`} value={draft.format} aria-invalid={invalid('format')} aria-describedby={describedBy('format')} onChange={(e) => setDraft((d) => ({ ...d, format: e.target.value as DigitalFormat }))}>
            {DIGITAL_FORMATS.map((f) => (
              <option key={f} value={f}>
                {formatLabel(f)}
              </option>
            ))}
          </Select>
          {message('format')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-slug`}>Address: /free/…</Label>
          <Input id={`${prefix}-slug`} value={draft.slug} placeholder="the-first-case" aria-invalid={invalid('slug')} aria-describedby={describedBy('slug')} onChange={(e) => setDraft((d) => ({ ...d, slug: e.target.value }))} />
          {message('slug')}
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${prefix}-pitch`}>Pitch</Label>
        <Textarea id={`${prefix}-pitch`} rows={4} maxLength={FREE_BOOK_PITCH_MAX} value={draft.pitch} aria-invalid={invalid('pitch')} aria-describedby={describedBy('pitch')} onChange={(e) => setDraft((d) => ({ ...d, pitch: e.target.value }))} />
        {message('pitch')}
      </div>
      <label className="flex items-center gap-2 text-sm text-bone-100">
        <input type="checkbox" className="size-4 accent-blood-500" checked={draft.active} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} />
        On offer
      </label>
      <FormFooter error={errors.form} saving={saving} submitLabel={freeBook ? 'Save Changes' : 'Create Free Book'} onCancel={onCancel} />
    </form>
  );
}
