/** Trace a Copy: the admin drops in a leaked EPUB or PDF and learns whose purchase it was made for. */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Search } from 'lucide-react';
import type { TraceResult } from '@shared/schemas/copies';
import { formatLabel } from '@shared/constants';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { traceFile } from '../api';

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }) + ' UTC';
const FORMAT_LABEL: Record<string, string> = { ebook: 'E-Book (EPUB)', pdf: 'PDF' };

export function TraceForm() {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ found: TraceResult; fileName: string } | { notFound: string } | { error: string } | null>(null);

  const resultRef = useRef<HTMLDivElement>(null);
  // On a small screen the answer lands below the fold: bring it into view.
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [result]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setResult({ error: 'Choose a file to trace.' });
      return;
    }
    setBusy(true);
    setResult(null);
    try {
      const answer = await traceFile(file);
      setResult('found' in answer ? { found: answer.found, fileName: file.name } : answer);
    } catch (error) {
      setResult({ error: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid max-w-2xl gap-6">
      <form onSubmit={submit} className="grid gap-3 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
        <Label htmlFor={inputId}>EPUB or PDF file</Label>
        <Input
          id={inputId}
          type="file"
          accept=".epub,.pdf,application/epub+zip,application/pdf"
          className="h-auto py-2"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <p className="text-sm text-bone-400">
          Every e-book and PDF this site sells carries a hidden mark naming its purchase, even if its ex-libris page
          was deleted. The file is read and not kept.
        </p>
        <Button type="submit" className="w-fit" disabled={busy}>
          <Search aria-hidden="true" /> {busy ? 'Tracing...' : 'Trace this copy'}
        </Button>
      </form>
      <div aria-live="polite" ref={resultRef} className="scroll-mb-28">
        {result && 'found' in result ? (
          <section aria-labelledby="trace-result" className="rounded-xl border border-blood-500/60 bg-ink-900 p-5">
            <h2 id="trace-result" className="font-display text-xl font-semibold text-bone-50">
              Copy found
            </h2>
            <p className="mt-1 text-sm text-bone-300">{result.fileName} was made for this purchase:</p>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-bone-400">Reader</dt>
              <dd className="text-bone-50">{result.found.name}</dd>
              <dt className="text-bone-400">Email</dt>
              <dd className="break-all text-bone-50">
                <a href={`mailto:${result.found.email}`} className="underline decoration-bone-400/50 underline-offset-2 hover:decoration-bone-50">
                  {result.found.email}
                </a>
              </dd>
              <dt className="text-bone-400">Order</dt>
              <dd className="font-mono text-bone-50">{result.found.orderReference}</dd>
              <dt className="text-bone-400">Format</dt>
              <dd className="text-bone-50">{FORMAT_LABEL[result.found.format] ?? formatLabel(result.found.format)}</dd>
              <dt className="text-bone-400">Bought</dt>
              <dd className="text-bone-50">{dateTime(result.found.purchasedAt)}</dd>
            </dl>
          </section>
        ) : result && 'notFound' in result ? (
          <Alert title="Not a copy from this site">{result.notFound}</Alert>
        ) : result && 'error' in result ? (
          <Alert variant="destructive" title="Could not trace the file">{result.error}</Alert>
        ) : null}
      </div>
    </div>
  );
}
