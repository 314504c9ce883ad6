/**
 * "Buy as a gift" (issue 15 point 3): who receives the format, an optional message of at most 500
 * characters and an optional delivery moment. Checked with the server's own schema before sending.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Gift } from 'lucide-react';
import { GIFT_MESSAGE_MAX, GIFT_MESSAGES, type GiftRequest, giftRequestSchema, sendAtError } from '@shared/schemas/gifts';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';

type Field = 'recipientName' | 'recipientEmail' | 'message' | 'sendAt';
const EMPTY: Record<Field, string> = { recipientName: '', recipientEmail: '', message: '', sendAt: '' };

/** The form's values as the API takes them, or the first message per field. */
export function readGiftForm(values: Record<Field, string>, now = new Date()):
  | { ok: true; gift: GiftRequest }
  | { ok: false; errors: Partial<Record<Field, string>> } {
  let sendAt: string | undefined;
  if (values.sendAt) {
    // datetime-local has no zone: it is the reader's own local time.
    const local = new Date(values.sendAt);
    if (Number.isNaN(local.getTime())) return { ok: false, errors: { sendAt: GIFT_MESSAGES.sendAtInvalid } };
    sendAt = local.toISOString();
  }
  const parsed = giftRequestSchema.safeParse({
    recipientName: values.recipientName,
    recipientEmail: values.recipientEmail,
    message: values.message,
    sendAt,
  });
  const errors: Partial<Record<Field, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      errors[field] ??= issue.message;
    }
  }
  const past = sendAtError(sendAt, now);
  if (past) errors.sendAt ??= past;
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, gift: { ...parsed.data, sendAt: parsed.data.sendAt } };
}

export interface GiftFormProps {
  onSubmit: (gift: GiftRequest) => Promise<void> | void;
  busy?: boolean;
  /** A message from the server (shown under the form). */
  serverError?: string | null;
}

export function GiftForm({ onSubmit, busy = false, serverError }: GiftFormProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readGiftForm(values);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    await onSubmit(read.gift);
  };

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : `${id}-${name}-hint`,
  });
  const errorLine = (name: Field) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} role="alert" className="text-sm text-blood-300">
        {errors[name]}
      </p>
    ) : null;

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Buy as a gift" className="grid gap-5 sm:grid-cols-2">
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-recipientName`}>Recipient name</Label>
        <Input {...field('recipientName')} autoComplete="off" required aria-required="true" value={values.recipientName} onChange={set('recipientName')} />
        {errorLine('recipientName')}
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-recipientEmail`}>Recipient email</Label>
        <Input {...field('recipientEmail')} type="email" autoComplete="off" required aria-required="true" value={values.recipientEmail} onChange={set('recipientEmail')} />
        {errorLine('recipientEmail')}
      </div>
      <div className="grid gap-2 sm:col-span-2">
        <Label htmlFor={`${id}-message`}>Message (optional)</Label>
        <Textarea {...field('message')} rows={4} value={values.message} onChange={set('message')} />
        <p id={`${id}-message-hint`} className={values.message.length > GIFT_MESSAGE_MAX ? 'text-xs text-blood-300' : 'text-xs text-bone-400'}>
          {values.message.length}/{GIFT_MESSAGE_MAX} characters · printed in their copy of the e-book
        </p>
        {errorLine('message')}
      </div>
      <div className="grid content-start gap-2 sm:col-span-2">
        <Label htmlFor={`${id}-sendAt`}>Delivery date and time (optional)</Label>
        <Input {...field('sendAt')} type="datetime-local" className="sm:max-w-xs" value={values.sendAt} onChange={set('sendAt')} />
        <p id={`${id}-sendAt-hint`} className="text-xs text-bone-400">
          Leave it empty to send the gift as soon as you have paid.
        </p>
        {errorLine('sendAt')}
      </div>
      {serverError ? (
        <p role="alert" className="text-sm text-blood-300 sm:col-span-2">
          {serverError}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy || undefined} className="w-full sm:w-auto">
          <Gift aria-hidden="true" />
          {busy ? 'Processing...' : 'Continue to payment'}
        </Button>
      </div>
    </form>
  );
}
