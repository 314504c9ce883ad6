/**
 * Create or edit one shipping zone. Prices are typed in pounds and sent in pence; the countries are typed
 * as two-letter codes separated by commas or spaces. Checked with the shared schema, so the messages are
 * the server's.
 */
import { useState } from 'react';
import { type ShippingZone, type ShippingZoneInput, shippingZoneInputSchema } from '@shared/schemas/shipping';
import { FormFooter } from '@client/components/ui/form-footer';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { errorText, fieldErrors } from '@client/lib/api-errors';
import { fieldMessages } from '@client/components/ui/field-messages';

interface Draft {
  name: string;
  countries: string;
  firstItem: string;
  additionalItem: string;
  freeOver: string;
}

const pounds = (pence: number) => (pence / 100).toFixed(2);

const draftOf = (zone: ShippingZone | null): Draft =>
  zone
    ? { name: zone.name, countries: zone.countries.join(', '), firstItem: pounds(zone.firstItem), additionalItem: pounds(zone.additionalItem), freeOver: zone.freeOver === null ? '' : pounds(zone.freeOver) }
    : { name: '', countries: '', firstItem: '', additionalItem: '', freeOver: '' };

/** An empty price box is not £0: it is sent as "no number" so the schema names it. */
const pence = (text: string) => (text.trim() === '' ? Number.NaN : Math.round(Number(text) * 100));

export const toInput = (d: Draft): ShippingZoneInput => ({
  name: d.name,
  countries: d.countries.split(/[\s,;]+/).filter(Boolean),
  firstItem: pence(d.firstItem),
  additionalItem: pence(d.additionalItem),
  freeOver: d.freeOver.trim() === '' ? null : pence(d.freeOver),
});

type Field = keyof Draft | 'form';
type Errors = Partial<Record<Field, string>>;

export function ZoneForm({
  zone,
  saving,
  onSave,
  onCancel,
}: {
  zone: ShippingZone | null;
  saving: boolean;
  onSave: (input: ShippingZoneInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(zone));
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof Draft, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const prefix = zone ? `zone-${zone.id}` : 'zone-new';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = shippingZoneInputSchema.safeParse(toInput(draft));
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[(key in draft ? key : 'form') as Field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await onSave(parsed.data);
      if (!zone) setDraft(draftOf(null));
    } catch (error) {
      const fields = fieldErrors(error);
      const known = (Object.keys(fields) as Field[]).filter((k) => k in draft);
      setErrors(known.length ? Object.fromEntries(known.map((k) => [k, fields[k]])) : { form: errorText(error) });
    }
  };

  const { describedBy, invalid, message } = fieldMessages(prefix, errors);
  const field = (name: keyof Draft, label: string, props: React.ComponentProps<typeof Input> = {}) => (
    <div className="grid content-start gap-2">
      <Label htmlFor={`${prefix}-${name}`}>{label}</Label>
      <Input id={`${prefix}-${name}`} value={draft[name]} aria-invalid={invalid(name)} aria-describedby={describedBy(name)} onChange={(e) => set(name, e.target.value)} {...props} />
      {message(name)}
    </div>
  );
  const money = { type: 'number', inputMode: 'decimal', min: 0, step: 0.01 } as const;

  return (
    <form noValidate onSubmit={submit} aria-label={zone ? `Edit ${zone.name}` : 'New shipping zone'} className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {field('name', 'Name', { placeholder: 'Europe' })}
        {field('countries', 'Countries', { placeholder: 'FR, DE, IE', autoCapitalize: 'characters' })}
        {field('firstItem', 'First item (£)', money)}
        {field('additionalItem', 'Each further item (£)', money)}
        {field('freeOver', 'Free shipping from (£)', { ...money, placeholder: 'Never free' })}
      </div>
      <FormFooter error={errors.form} saving={saving} submitLabel={zone ? 'Save Changes' : 'Create Zone'} onCancel={onCancel} />
    </form>
  );
}
