/**
 * Create or edit one discount code. The body is checked with the same zod schema the server uses, so
 * the messages are the server's; amounts are typed in pounds and sent in pence.
 */
import { useState } from 'react';
import { PURCHASE_FORMATS, type PurchaseFormat } from '@shared/constants';
import { type Discount, type DiscountInput, discountInputSchema } from '@shared/schemas/discounts';
import { formatLabel } from '@shared/constants';
import { FormFooter } from '@client/components/ui/form-footer';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { fieldErrors, errorText } from '@client/lib/api-errors';
import { toLocalInput } from '@client/lib/local-date-time';
import { fieldMessages } from '@client/components/ui/field-messages';

interface Draft {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  formats: PurchaseFormat[];
  expiresAt: string;
  maxRedemptions: string;
  active: boolean;
}

function draftOf(discount: Discount | null): Draft {
  if (!discount) return { code: '', kind: 'percent', value: '', formats: [], expiresAt: '', maxRedemptions: '', active: true };
  return {
    code: discount.code,
    kind: discount.percentOff != null ? 'percent' : 'amount',
    value: discount.percentOff != null ? String(discount.percentOff) : ((discount.amountOff ?? 0) / 100).toFixed(2),
    formats: discount.formats ?? [],
    expiresAt: discount.expiresAt ? toLocalInput(discount.expiresAt) : '',
    maxRedemptions: discount.maxRedemptions != null ? String(discount.maxRedemptions) : '',
    active: discount.active,
  };
}

const number = (text: string) => (text.trim() === '' ? null : Number(text));

export function toInput(d: Draft): DiscountInput {
  const value = number(d.value);
  return {
    code: d.code,
    percentOff: d.kind === 'percent' ? value : null,
    amountOff: d.kind === 'amount' && value !== null ? Math.round(value * 100) : null,
    formats: d.formats.length ? d.formats : null,
    expiresAt: d.expiresAt ? new Date(d.expiresAt).toISOString() : null,
    maxRedemptions: number(d.maxRedemptions),
    active: d.active,
  };
}

type Errors = Partial<Record<'code' | 'value' | 'formats' | 'expiresAt' | 'maxRedemptions' | 'form', string>>;

export function DiscountForm({
  discount,
  saving,
  onSave,
  onCancel,
}: {
  discount: Discount | null;
  saving: boolean;
  onSave: (input: DiscountInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(discount));
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const prefix = discount ? `discount-${discount.id}` : 'discount-new';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = discountInputSchema.safeParse(input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        const field = key === 'percentOff' || key === 'amountOff' ? 'value' : (key as keyof Errors);
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await onSave(input);
      if (!discount) setDraft(draftOf(null));
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors({
        code: fields.code,
        maxRedemptions: fields.maxRedemptions,
        expiresAt: fields.expiresAt,
        form: fields.code || fields.maxRedemptions || fields.expiresAt ? undefined : errorText(error),
      });
    }
  };

  const { describedBy, invalid, message } = fieldMessages(prefix, errors);

  return (
    <form noValidate onSubmit={submit} aria-label={discount ? `Edit ${discount.code}` : 'New discount code'} className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-code`}>Code</Label>
          <Input id={`${prefix}-code`} value={draft.code} autoCapitalize="characters" aria-invalid={invalid('code')} aria-describedby={describedBy('code')} onChange={(e) => set('code', e.target.value)} />
          {message('code')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-kind`}>Discount</Label>
          <Select id={`${prefix}-kind`} value={draft.kind} onChange={(e) => set('kind', e.target.value as Draft['kind'])}>
            <option value="percent">Percentage off</option>
            <option value="amount">Amount off (£)</option>
          </Select>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-value`}>{draft.kind === 'percent' ? 'Percent off' : 'Pounds off'}</Label>
          <Input id={`${prefix}-value`} type="number" inputMode="decimal" min={draft.kind === 'percent' ? 1 : 0.01} max={draft.kind === 'percent' ? 100 : undefined} step={draft.kind === 'percent' ? 1 : 0.01} value={draft.value} aria-invalid={invalid('value')} aria-describedby={describedBy('value')} onChange={(e) => set('value', e.target.value)} />
          {message('value')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-max`}>Maximum uses</Label>
          <Input id={`${prefix}-max`} type="number" inputMode="numeric" min={1} step={1} placeholder="Unlimited" value={draft.maxRedemptions} aria-invalid={invalid('maxRedemptions')} aria-describedby={describedBy('maxRedemptions')} onChange={(e) => set('maxRedemptions', e.target.value)} />
          {message('maxRedemptions')}
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${prefix}-expires`}>Expires</Label>
          <Input id={`${prefix}-expires`} type="datetime-local" value={draft.expiresAt} aria-invalid={invalid('expiresAt')} aria-describedby={describedBy('expiresAt')} onChange={(e) => set('expiresAt', e.target.value)} />
          {message('expiresAt')}
        </div>
        <fieldset className="grid content-start gap-2 sm:col-span-2 lg:col-span-2" aria-describedby={describedBy('formats')}>
          <legend className="mb-2 text-sm font-medium text-bone-100">Formats (none ticked: all formats)</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {PURCHASE_FORMATS.map((format) => (
              <label key={format} className="flex items-center gap-2 text-sm text-bone-100">
                <input
                  type="checkbox"
                  className="size-4 accent-blood-500"
                  checked={draft.formats.includes(format)}
                  onChange={(e) => set('formats', e.target.checked ? [...draft.formats, format] : draft.formats.filter((f) => f !== format))}
                />
                {formatLabel(format)}
              </label>
            ))}
          </div>
          {message('formats')}
        </fieldset>
        <label className="flex items-center gap-2 self-end text-sm text-bone-100">
          <input type="checkbox" className="size-4 accent-blood-500" checked={draft.active} onChange={(e) => set('active', e.target.checked)} />
          Active
        </label>
      </div>
      <FormFooter error={errors.form} saving={saving} submitLabel={discount ? 'Save Changes' : 'Create Code'} onCancel={onCancel} />
    </form>
  );
}
