/**
 * The book form's "Release and prices" section (issue 15 point 4): a release date puts a book that is
 * not featured on pre-order at the prices given; an empty price takes that format off sale.
 */
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PURCHASE_FORMATS } from '@shared/constants';
import {
  PRE_ORDER_MESSAGES,
  type PreOrderSettings as Settings,
  type PreOrderSettingsAnswer,
  missingFileWarning,
} from '@shared/schemas/pre-orders';
import { TriangleAlert } from 'lucide-react';
import { formatLabel } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/toast-store';
import { errorMessage } from '@client/lib/api-errors';
import { apiRequest } from '@client/lib/api-client';
import { toLocalInput } from '@client/lib/local-date-time';

type Format = (typeof PURCHASE_FORMATS)[number];
type Values = { releaseAt: string } & Record<Format, string>;


/** The form's values as the API takes them, or the first message. */
export function readSettings(values: Values): { ok: true; settings: Settings } | { ok: false; error: string; field: string } {
  let releaseAt: string | null = null;
  if (values.releaseAt) {
    const d = new Date(values.releaseAt);
    if (Number.isNaN(d.getTime())) return { ok: false, error: PRE_ORDER_MESSAGES.releaseAtInvalid, field: 'releaseAt' };
    releaseAt = d.toISOString();
  }
  const prices = {} as Settings['prices'];
  for (const format of PURCHASE_FORMATS) {
    const raw = values[format].trim().replace(/^£/, '');
    if (!raw) {
      prices[format] = null;
      continue;
    }
    if (!/^\d+(\.\d{1,2})?$/.test(raw) || Number(raw) <= 0) return { ok: false, error: PRE_ORDER_MESSAGES.priceInvalid, field: format };
    prices[format] = Math.round(Number(raw) * 100);
  }
  return { ok: true, settings: { releaseAt, prices } };
}

export function PreOrderSettings({ bookId, featured }: { bookId: number; featured: boolean }) {
  const id = useId();
  const key = [`/api/admin/books/${bookId}/pre-order`];
  const settings = useQuery<PreOrderSettingsAnswer>({ queryKey: key, staleTime: 0 });
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values | null>(null);
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (settings.data && values === null) {
      const prices = settings.data.prices;
      setValues({
        releaseAt: toLocalInput(settings.data.releaseAt),
        ...(Object.fromEntries(PURCHASE_FORMATS.map((f) => [f, prices[f] === null ? '' : (prices[f]! / 100).toFixed(2)])) as Record<Format, string>),
      });
    }
  }, [settings.data, values]);

  if (!values) return null;
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readSettings(values);
    if (!read.ok) {
      setError({ field: read.field, message: read.error });
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await apiRequest('PUT', key[0], read.settings);
      await queryClient.invalidateQueries({ queryKey: key });
      toast({ title: 'Release and prices saved', description: read.settings.releaseAt ? 'The release job follows the new date.' : 'The book has no release date.' });
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err, 'Could not save the release and prices.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const described = (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});
  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby={`${id}-title`}
      className="mt-8 grid gap-5 rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 md:p-8"
    >
      <div>
        <h2 id={`${id}-title`} className="font-display text-2xl font-semibold text-bone-50">
          Release and prices
        </h2>
        <p className="mt-1 text-sm text-bone-400">
          {featured
            ? 'The featured book is on sale at these prices.'
            : 'Give the upcoming book a release date and prices to open pre-orders on the home page. Downloads open at the release date and time, and every buyer is emailed once.'}
        </p>
      </div>
      {settings.data && settings.data.missingFiles.length > 0 ? (
        // Every pre-ordered digital format still without its file: its buyers hear the truth at the release.
        <div role="note" aria-labelledby={`${id}-missing`} className="rounded-lg border border-blood-700/60 bg-blood-950/40 p-4 text-sm text-bone-200">
          <p id={`${id}-missing`} className="flex items-center gap-2 font-semibold text-bone-50">
            <TriangleAlert aria-hidden="true" className="size-4 text-blood-400" /> Files missing for pre-ordered formats
          </p>
          <ul className="mt-2 grid gap-1">
            {settings.data.missingFiles.map((file) => (
              <li key={file.format}>{missingFileWarning(file)}</li>
            ))}
          </ul>
          <p className="mt-2 text-bone-300">
            Upload them under Digital Files before the release. If a file is still missing on the day, its buyers are told it is
            not ready yet, and emailed as soon as you upload it.
          </p>
        </div>
      ) : null}
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor={`${id}-releaseAt`}>Release date and time</Label>
        <Input id={`${id}-releaseAt`} type="datetime-local" value={values.releaseAt} onChange={set('releaseAt')} {...described('releaseAt')} />
      </div>
      <fieldset className="grid gap-4 sm:grid-cols-4">
        <legend className="mb-2 text-sm font-medium text-bone-100">Prices in £ (leave empty: not sold)</legend>
        {PURCHASE_FORMATS.map((format) => (
          <div key={format} className="grid gap-2">
            <Label htmlFor={`${id}-${format}`}>{formatLabel(format)}</Label>
            <Input id={`${id}-${format}`} inputMode="decimal" value={values[format]} onChange={set(format)} {...described(format)} />
          </div>
        ))}
      </fieldset>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-blood-300">
          {error.message}
        </p>
      ) : null}
      <Button type="submit" className="w-fit" disabled={saving}>
        {saving ? 'Saving...' : 'Save release and prices'}
      </Button>
    </form>
  );
}
