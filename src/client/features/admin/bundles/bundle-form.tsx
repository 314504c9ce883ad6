/**
 * Create or edit one bundle: a name, the formats of one or more books (ticked per book), a price typed in
 * pounds and sent in pence, and whether it is on sale. Checked with the shared schema, so the messages
 * are the server's.
 */
import { useState } from 'react';
import { PURCHASE_FORMATS, type PurchaseFormat, formatLabel } from '@shared/constants';
import { type AdminBundle, type BundleInput, type BundleItem, bundleInputSchema } from '@shared/schemas/bundles';
import { FormFooter } from '@client/components/ui/form-footer';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { errorText, fieldErrors } from '@client/lib/api-errors';
import { fieldMessages } from '@client/components/ui/field-messages';

interface Draft {
  name: string;
  items: BundleItem[];
  price: string;
  active: boolean;
}

const draftOf = (b: AdminBundle | null): Draft =>
  b ? { name: b.name, items: b.items.map((i) => ({ bookId: i.bookId, format: i.format })), price: (b.price / 100).toFixed(2), active: b.active } : { name: '', items: [], price: '', active: true };

export const toInput = (d: Draft): BundleInput => ({
  name: d.name,
  items: d.items,
  // An empty box is not £0: it is sent as "no number" so the schema names it.
  price: d.price.trim() === '' ? Number.NaN : Math.round(Number(d.price) * 100),
  active: d.active,
});

type Field = 'name' | 'items' | 'price' | 'form';
type Errors = Partial<Record<Field, string>>;

export function BundleForm({
  bundle,
  books,
  saving,
  onSave,
  onCancel,
}: {
  bundle: AdminBundle | null;
  books: Array<{ id: number; title: string }>;
  saving: boolean;
  onSave: (input: BundleInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(bundle));
  const [errors, setErrors] = useState<Errors>({});
  const prefix = bundle ? `bundle-${bundle.id}` : 'bundle-new';
  const has = (bookId: number, format: PurchaseFormat) => draft.items.some((i) => i.bookId === bookId && i.format === format);
  const toggle = (bookId: number, format: PurchaseFormat, on: boolean) =>
    setDraft((d) => ({ ...d, items: on ? [...d.items, { bookId, format }] : d.items.filter((i) => !(i.bookId === bookId && i.format === format)) }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = bundleInputSchema.safeParse(input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[(['name', 'items', 'price'].includes(key) ? key : 'form') as Field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await onSave(input);
      if (!bundle) setDraft(draftOf(null));
    } catch (error) {
      const fields = fieldErrors(error);
      const item = Object.keys(fields).find((k) => k.startsWith('items'));
      setErrors(
        fields.name || fields.price || item
          ? { name: fields.name, price: fields.price, items: item ? fields[item] : undefined }
          : { form: errorText(error) },
      );
    }
  };

  const { describedBy, invalid, message } = fieldMessages(prefix, errors);

  return (
    <form noValidate onSubmit={submit} aria-label={bundle ? `Edit ${bundle.name}` : 'New bundle'} className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-name`}>Name</Label>
          <Input id={`${prefix}-name`} value={draft.name} aria-invalid={invalid('name')} aria-describedby={describedBy('name')} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} />
          {message('name')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-price`}>Price (£)</Label>
          <Input id={`${prefix}-price`} type="number" inputMode="decimal" min={0} step={0.01} value={draft.price} aria-invalid={invalid('price')} aria-describedby={describedBy('price')} onChange={(e) => setDraft((d) => ({ ...d, price: e.target.value }))} />
          {message('price')}
        </div>
      </div>
      <fieldset className="grid gap-3" aria-describedby={describedBy('items')} aria-invalid={invalid('items')}>
        <legend className="mb-2 text-sm font-medium text-bone-100">What the bundle holds (at least two formats)</legend>
        {books.map((book) => (
          <div key={book.id} role="group" aria-label={book.title} className="grid gap-2">
            <p className="text-sm font-semibold text-bone-50">{book.title}</p>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {PURCHASE_FORMATS.map((format) => (
                <label key={format} className="flex items-center gap-2 text-sm text-bone-100">
                  <input type="checkbox" className="size-4 accent-blood-500" checked={has(book.id, format)} onChange={(e) => toggle(book.id, format, e.target.checked)} />
                  {formatLabel(format)}
                </label>
              ))}
            </div>
          </div>
        ))}
        {message('items')}
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-bone-100">
        <input type="checkbox" className="size-4 accent-blood-500" checked={draft.active} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} />
        On sale
      </label>
      <FormFooter error={errors.form} saving={saving} submitLabel={bundle ? 'Save Changes' : 'Create Bundle'} onCancel={onCancel} />
    </form>
  );
}
