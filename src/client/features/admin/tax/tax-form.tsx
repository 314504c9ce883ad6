/**
 * The tax setting, the default rate and the rate table (country x format -> rate), saved at once with
 * PUT. Checked with the shared schema before sending, so the messages are the server's.
 */
import { useState } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { PURCHASE_FORMATS, type PurchaseFormat, formatLabel } from '@shared/constants';
import { type TaxSettings, taxSettingsSchema } from '@shared/schemas/tax';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { errorText, fieldErrors } from '@client/lib/api-errors';

interface RowDraft {
  key: number;
  country: string;
  format: PurchaseFormat;
  rate: string;
}

interface Draft {
  pricesIncludeTax: boolean;
  defaultRate: string;
  rates: RowDraft[];
}

let nextKey = 1;
const row = (country = '', format: PurchaseFormat = 'ebook', rate = ''): RowDraft => ({ key: nextKey++, country, format, rate });

const draftOf = (s: TaxSettings): Draft => ({
  pricesIncludeTax: s.pricesIncludeTax,
  defaultRate: String(s.defaultRate),
  rates: s.rates.map((r) => row(r.country, r.format, String(r.rate))),
});

/** An empty box is not 0: it is sent as "no number" so the schema names it. */
const percent = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export const toInput = (d: Draft): TaxSettings => ({
  pricesIncludeTax: d.pricesIncludeTax,
  defaultRate: percent(d.defaultRate),
  rates: d.rates.map((r) => ({ country: r.country, format: r.format, rate: percent(r.rate) })),
});

/** Errors keyed "defaultRate", "rates.2.rate", "form". */
type Errors = Record<string, string>;

export function TaxForm({ settings, saving, onSave }: { settings: TaxSettings; saving: boolean; onSave: (input: TaxSettings) => Promise<void> }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Errors>({});
  const setRow = (key: number, patch: Partial<RowDraft>) => setDraft((d) => ({ ...d, rates: d.rates.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const input = toInput(draft);
    const parsed = taxSettingsSchema.safeParse(input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path.length ? issue.path.join('.') : 'form'] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await onSave(parsed.data);
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors(Object.keys(fields).length ? fields : { form: errorText(error) });
    }
  };

  const id = (name: string) => `tax-${name.replace(/\./g, '-')}`;
  const invalid = (name: string) => (errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${id(name)}-error` } : {});
  const message = (name: string) =>
    errors[name] ? (
      <p id={`${id(name)}-error`} className="text-sm text-blood-300">
        {errors[name]}
      </p>
    ) : null;

  return (
    <form noValidate onSubmit={submit} aria-label="Tax rates" className="grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium text-bone-100">Prices</legend>
        <label className="flex items-center gap-2 text-sm text-bone-100">
          <input type="radio" name="prices-include-tax" className="size-4 accent-blood-500" checked={draft.pricesIncludeTax} onChange={() => setDraft((d) => ({ ...d, pricesIncludeTax: true }))} />
          Prices include tax
        </label>
        <label className="flex items-center gap-2 text-sm text-bone-100">
          <input type="radio" name="prices-include-tax" className="size-4 accent-blood-500" checked={!draft.pricesIncludeTax} onChange={() => setDraft((d) => ({ ...d, pricesIncludeTax: false }))} />
          Tax is added at checkout
        </label>
      </fieldset>
      <div className="grid max-w-xs content-start gap-2">
        <Label htmlFor={id('defaultRate')}>Default rate (%)</Label>
        <Input id={id('defaultRate')} type="number" inputMode="decimal" min={0} max={100} step={0.01} value={draft.defaultRate} {...invalid('defaultRate')} onChange={(e) => setDraft((d) => ({ ...d, defaultRate: e.target.value }))} />
        {message('defaultRate')}
      </div>
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium text-bone-100">Rates by country and format (a sale with no row pays the default rate)</legend>
        {draft.rates.length === 0 ? <p className="text-sm text-bone-300">No rates yet: every sale pays the default rate.</p> : null}
        {draft.rates.map((r, i) => (
          <div key={r.key} role="group" aria-label={`Rate ${i + 1}`} className="grid items-start gap-3 sm:grid-cols-[1fr_1fr_1fr_auto]">
            <div className="grid content-start gap-2">
              <Label htmlFor={id(`rates.${i}.country`)}>Country</Label>
              <Input id={id(`rates.${i}.country`)} value={r.country} maxLength={2} autoCapitalize="characters" placeholder="GB" {...invalid(`rates.${i}.country`)} onChange={(e) => setRow(r.key, { country: e.target.value })} />
              {message(`rates.${i}.country`)}
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor={id(`rates.${i}.format`)}>Format</Label>
              <Select id={id(`rates.${i}.format`)} value={r.format} {...invalid(`rates.${i}.format`)} onChange={(e) => setRow(r.key, { format: e.target.value as PurchaseFormat })}>
                {PURCHASE_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {formatLabel(f)}
                  </option>
                ))}
              </Select>
              {message(`rates.${i}.format`)}
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor={id(`rates.${i}.rate`)}>Rate (%)</Label>
              <Input id={id(`rates.${i}.rate`)} type="number" inputMode="decimal" min={0} max={100} step={0.01} value={r.rate} {...invalid(`rates.${i}.rate`)} onChange={(e) => setRow(r.key, { rate: e.target.value })} />
              {message(`rates.${i}.rate`)}
            </div>
            <Button type="button" variant="outline" size="sm" className="sm:mt-7" aria-label={`Remove rate ${i + 1}`} onClick={() => setDraft((d) => ({ ...d, rates: d.rates.filter((x) => x.key !== r.key) }))}>
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => setDraft((d) => ({ ...d, rates: [...d.rates, row()] }))}>
            <Plus aria-hidden="true" />
            Add Rate
          </Button>
        </div>
      </fieldset>
      {errors.form || errors.rates ? (
        <p role="alert" className="text-sm text-blood-300">
          {errors.form ?? errors.rates}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Tax Settings'}
        </Button>
      </div>
    </form>
  );
}
