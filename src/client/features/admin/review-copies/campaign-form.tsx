/**
 * Create or edit one review-copy campaign (decision 0099): the book and format, the address
 * /review-copies/{slug}, when it opens and closes, how many copies, the question to applicants, whether
 * applications are approved automatically, and how many days apart the reminders go. Checked with the
 * shared schema, so the messages are the server's.
 */
import { useState } from 'react';
import { formatLabel } from '@shared/constants';
import { slugify } from '@shared/slug';
import { type AdminCampaign, type CampaignInput, REVIEW_COPY_FORMATS, campaignInputSchema } from '@shared/schemas/review-copies';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Select } from '@client/components/ui/select';
import { Textarea } from '@client/components/ui/textarea';
import { fromLocalInput, toLocalInput } from '@client/lib/local-date-time';
import { type FormErrors, errorsOfIssues, errorsOfRefusal } from '../components/form-errors';
import { FormFooter } from '@client/components/ui/form-footer';

type Format = (typeof REVIEW_COPY_FORMATS)[number];

interface Draft {
  bookId: string;
  format: Format;
  slug: string;
  opensAt: string;
  closesAt: string;
  copies: string;
  question: string;
  autoApprove: boolean;
  reminderDays: string;
}

export const REMINDER_DAYS_DEFAULT = 7;

const draftOf = (c: AdminCampaign | null): Draft =>
  c
    ? {
        bookId: String(c.bookId),
        format: c.format,
        slug: c.slug,
        opensAt: toLocalInput(c.opensAt),
        closesAt: toLocalInput(c.closesAt),
        copies: String(c.copies),
        question: c.question,
        autoApprove: c.autoApprove,
        reminderDays: String(c.reminderDays),
      }
    : { bookId: '', format: 'ebook', slug: '', opensAt: '', closesAt: '', copies: '', question: '', autoApprove: false, reminderDays: String(REMINDER_DAYS_DEFAULT) };

// An empty box is not 0: it is sent as "no number" so the schema names it.
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export const toInput = (d: Draft): CampaignInput => ({
  bookId: numberOf(d.bookId),
  format: d.format,
  slug: d.slug,
  opensAt: fromLocalInput(d.opensAt),
  closesAt: fromLocalInput(d.closesAt),
  copies: numberOf(d.copies),
  question: d.question,
  autoApprove: d.autoApprove,
  reminderDays: numberOf(d.reminderDays),
});

const FIELDS = ['bookId', 'format', 'slug', 'opensAt', 'closesAt', 'copies', 'question', 'reminderDays'] as const;
type Errors = FormErrors<(typeof FIELDS)[number]>;

export function CampaignForm({
  campaign,
  books,
  saving,
  onSave,
  onCancel,
}: {
  campaign: AdminCampaign | null;
  books: Array<{ id: number; title: string }>;
  saving: boolean;
  onSave: (input: CampaignInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(campaign));
  const [errors, setErrors] = useState<Errors>({});
  const prefix = campaign ? `campaign-${campaign.id}` : 'campaign-new';
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = campaignInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(errorsOfIssues(FIELDS, parsed.error.issues));
      return;
    }
    setErrors({});
    try {
      await onSave(parsed.data);
      if (!campaign) setDraft(draftOf(null));
    } catch (error) {
      setErrors(errorsOfRefusal(FIELDS, error));
    }
  };

  const chooseBook = (value: string) =>
    setDraft((d) => {
      const title = books.find((b) => String(b.id) === value)?.title;
      // A new campaign's address starts from the book's title; the author may change it.
      return { ...d, bookId: value, slug: !campaign && d.slug === '' && title ? slugify(title).slice(0, 80).replace(/-+$/, '') : d.slug };
    });

  return (
    <form noValidate onSubmit={submit} aria-label={campaign ? `Edit /review-copies/${campaign.slug}` : 'New campaign'} className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField id={`${prefix}-book`} label="Book" error={errors.bookId}>
          <Select value={draft.bookId} onChange={(e) => chooseBook(e.target.value)}>
            <option value="">Choose a book</option>
            {books.map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id={`${prefix}-format`} label="Format" error={errors.format}>
          <Select value={draft.format} onChange={(e) => set('format')(e.target.value as Format)}>
            {REVIEW_COPY_FORMATS.map((f) => (
              <option key={f} value={f}>
                {formatLabel(f)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id={`${prefix}-slug`} label="Address: /review-copies/…" error={errors.slug}>
          <Input value={draft.slug} placeholder="early-readers" onChange={(e) => set('slug')(e.target.value)} />
        </FormField>
        <FormField id={`${prefix}-opens`} label="Opens" error={errors.opensAt}>
          <Input type="datetime-local" value={draft.opensAt} onChange={(e) => set('opensAt')(e.target.value)} />
        </FormField>
        <FormField id={`${prefix}-closes`} label="Closes" error={errors.closesAt}>
          <Input type="datetime-local" value={draft.closesAt} onChange={(e) => set('closesAt')(e.target.value)} />
        </FormField>
        <div className="grid grid-cols-2 gap-4">
          <FormField id={`${prefix}-copies`} label="Copies" error={errors.copies}>
            <Input type="number" inputMode="numeric" min={1} step={1} value={draft.copies} onChange={(e) => set('copies')(e.target.value)} />
          </FormField>
          <FormField id={`${prefix}-reminder`} label="Remind every (days)" error={errors.reminderDays}>
            <Input type="number" inputMode="numeric" min={1} max={90} step={1} value={draft.reminderDays} onChange={(e) => set('reminderDays')(e.target.value)} />
          </FormField>
        </div>
      </div>
      <FormField id={`${prefix}-question`} label="Question to applicants" error={errors.question}>
        <Textarea rows={3} maxLength={500} value={draft.question} onChange={(e) => set('question')(e.target.value)} />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-bone-100">Applications are</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {[
            { value: false, label: 'Approved by hand' },
            { value: true, label: 'Approved automatically' },
          ].map((o) => (
            <label key={o.label} className="flex items-center gap-2 text-sm text-bone-100">
              <input type="radio" name={`${prefix}-approve`} className="size-4 accent-blood-500" checked={draft.autoApprove === o.value} onChange={() => set('autoApprove')(o.value)} />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
      <FormFooter error={errors.form} saving={saving} submitLabel={campaign ? 'Save Changes' : 'Create Campaign'} onCancel={onCancel} />
    </form>
  );
}
