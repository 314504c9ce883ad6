/**
 * "Send to Kindle" beside an owned e-book: the reader approves our sender address at Amazon (copy button),
 * saves up to three Kindle addresses and sends their own copy to one. Sending never uses the download.
 */
import { useId, useState, type FormEvent } from 'react';
import { Send, Tablet, Trash2 } from 'lucide-react';
import { isKindleAddress, KINDLE_ADDRESS_MESSAGE } from '@shared/schemas/copies';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Skeleton } from '@client/components/ui/skeleton';
import { useKindleActions, useKindleSettings } from '../api';
import { CopyButton } from '@client/components/ui/copy-button';

export function SendToKindleButton({ bookId, title }: { bookId: number; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Send ${title} to Kindle`}>
          <Tablet aria-hidden="true" /> Send to Kindle
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send to Kindle</DialogTitle>
          <DialogDescription>
            We email your own copy of {title} to your Kindle. Sending does not use up your download.
          </DialogDescription>
        </DialogHeader>
        {open ? <SendToKindlePanel bookId={bookId} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SendToKindlePanel({ bookId }: { bookId: number }) {
  const settings = useKindleSettings(true);
  const { add, remove, send } = useKindleActions();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const inputId = useId();

  if (settings.isPending) return <Skeleton className="h-40" />;
  if (settings.isError || !settings.data) {
    return <Alert variant="destructive" title="Could not load your Kindle settings">{(settings.error as Error)?.message}</Alert>;
  }
  const { devices, senderAddress, maxDevices, sendsToday, dailyLimit } = settings.data;
  const busy = add.isPending || remove.isPending || send.isPending;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = address.trim();
    if (!isKindleAddress(value)) {
      setFieldError(KINDLE_ADDRESS_MESSAGE);
      return;
    }
    setFieldError(null);
    try {
      await add.mutateAsync(value);
      setAddress('');
    } catch (error) {
      setFieldError((error as Error).message);
    }
  };
  const sendTo = async (to: string) => {
    setOutcome(null);
    try {
      const answer = await send.mutateAsync({ bookId, address: to });
      setOutcome({ ok: true, text: answer.message });
    } catch (error) {
      setOutcome({ ok: false, text: (error as Error).message });
    }
  };

  return (
    <div className="grid gap-5 text-sm">
      <section className="grid gap-2">
        <h3 className="font-semibold text-bone-50">1. Approve our address at Amazon</h3>
        <p className="text-bone-300">
          Amazon only delivers books from senders you have approved. In your Amazon account, open Content &amp; Devices,
          then Preferences, then Personal Document Settings, and add this address to the Approved Personal Document
          E-mail List:
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code className="rounded border border-ink-600 bg-ink-950 px-2 py-1 font-mono text-bone-100 break-all">{senderAddress}</code>
          <CopyButton text={senderAddress} label="Copy sender address" />
        </div>
      </section>

      <section className="grid gap-2">
        <h3 className="font-semibold text-bone-50">2. Send to your Kindle</h3>
        <p className="text-bone-300">Your Kindle&apos;s email address is on the same Amazon page, under Send-to-Kindle E-Mail Settings.</p>
        {devices.length ? (
          <ul className="grid gap-2" aria-label="Your Kindle addresses">
            {devices.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-ink-700 px-3 py-2">
                <span className="min-w-0 break-all text-bone-100">{device.address}</span>
                <span className="flex gap-2">
                  <Button size="sm" disabled={busy || sendsToday >= dailyLimit} onClick={() => sendTo(device.address)} aria-label={`Send to ${device.address}`}>
                    <Send aria-hidden="true" /> Send
                  </Button>
                  <Button size="icon" variant="ghost" disabled={busy} onClick={() => remove.mutate(device.id)} aria-label={`Remove ${device.address}`}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {devices.length < maxDevices ? (
          <form className="grid gap-2" onSubmit={save} noValidate>
            <Label htmlFor={inputId}>Kindle email address</Label>
            <div className="flex flex-wrap gap-2">
              <Input
                id={inputId}
                type="email"
                inputMode="email"
                autoComplete="off"
                placeholder="name@kindle.com"
                className="min-w-0 flex-1"
                value={address}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? `${inputId}-error` : undefined}
                onChange={(e) => setAddress(e.target.value)}
              />
              <Button type="submit" variant="outline" disabled={busy}>
                Save address
              </Button>
            </div>
            {fieldError ? (
              <p id={`${inputId}-error`} className="text-blood-300">
                {fieldError}
              </p>
            ) : null}
          </form>
        ) : (
          <p className="text-bone-400">You have saved {maxDevices} addresses, the most allowed. Remove one to add another.</p>
        )}
      </section>

      <div aria-live="polite">
        {outcome ? (
          outcome.ok ? (
            <p role="status" className="rounded-md border border-ink-600 bg-ink-950 px-3 py-2 text-bone-100">{outcome.text}</p>
          ) : (
            <Alert variant="destructive" title="Not sent">{outcome.text}</Alert>
          )
        ) : null}
      </div>
      <p className="text-xs text-bone-400">
        {sendsToday} of {dailyLimit} sends used today.
      </p>
    </div>
  );
}
