/** /admin/files: the digital file of each book and format; upload or replace (buyers keep access). */
import { useState } from 'react';
import { TriangleAlert, Upload } from 'lucide-react';
import { DIGITAL_FORMATS, type DigitalFormat } from '@shared/constants';
import { UPLOAD_LIMITS } from '@shared/schemas/admin';
import { Card } from '@client/components/ui/card';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/toast-store';
import { useAssets, useBooks, useUploadAsset } from '@client/features/admin/api';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { formatShortDate } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';

const LABEL: Record<DigitalFormat, string> = { ebook: 'E-Book (EPUB)', pdf: 'PDF', audiobook: 'Audiobook (MP3 or M4A)' };
const ACCEPT: Record<DigitalFormat, string> = { ebook: '.epub,application/epub+zip', pdf: '.pdf,application/pdf', audiobook: '.mp3,.m4a,.m4b,audio/*' };
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export default function AdminFilesPage() {
  const books = useBooks();
  const assets = useAssets();
  const upload = useUploadAsset();
  const [busy, setBusy] = useState<string | null>(null);

  const onFile = async (bookId: number, format: DigitalFormat, file: File | undefined, input: HTMLInputElement) => {
    if (!file) return;
    if (file.size > UPLOAD_LIMITS[format]) {
      toast({ title: 'File too large', description: `The limit for ${format} is ${mb(UPLOAD_LIMITS[format])}.`, variant: 'destructive' });
      input.value = '';
      return;
    }
    setBusy(`${bookId}-${format}`);
    try {
      const asset = await upload.mutateAsync({ bookId, format, file });
      toast({ title: 'File uploaded', description: `${asset.fileName} is now version ${asset.version}.` });
    } catch (error) {
      toast({ title: 'Upload failed', description: errorText(error), variant: 'destructive' });
    } finally {
      setBusy(null);
      input.value = '';
    }
  };

  return (
    <AdminFrame title="Digital Files" intro={<p>Replacing a file keeps every past buyer's access: their library serves the new version.</p>}>
      <QueryState query={books.isPending || books.isError ? books : assets}>
        {() => (
          <div className="grid gap-6">
            {books.data!.map((book) => (
              <Card key={book.id} className="p-6">
                <h2 className="font-display text-xl font-semibold text-bone-50">{book.title}</h2>
                <div className="mt-4 grid gap-4 md:grid-cols-3">
                  {DIGITAL_FORMATS.map((format) => {
                    const asset = assets.data?.find((a) => a.bookId === book.id && a.format === format);
                    const id = `file-${book.id}-${format}`;
                    return (
                      <div key={format} className="rounded-lg border border-ink-700 p-4">
                        <p className="font-medium text-bone-50">{LABEL[format]}</p>
                        {asset ? (
                          <>
                            <p className="mt-1 text-sm break-all text-bone-300">
                              {asset.fileName} · {asset.fileSizeKb.toLocaleString('en-GB')} KB · v{asset.version}
                              <span className="block text-bone-400">Updated {formatShortDate(asset.updatedAt)}</span>
                            </p>
                            {asset.sample ? (
                              <p className="mt-3 flex gap-2 rounded-md border border-amber-500/50 bg-amber-500/10 p-2.5 text-sm text-amber-100">
                                <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
                                <span>
                                  <strong className="font-semibold">Sample file.</strong> This is still the short sample the site came with,
                                  not your book. Buyers of this format get the sample until you upload the real file.
                                </span>
                              </p>
                            ) : null}
                          </>
                        ) : (
                          <p className="mt-1 text-sm text-bone-400">No file yet</p>
                        )}
                        <Label htmlFor={id} className="mt-3 inline-flex cursor-pointer items-center gap-2 rounded-md border border-bone-300/40 px-3 py-1.5 text-sm hover:bg-bone-50/5 focus-within:ring-2 focus-within:ring-blood-400">
                          <Upload aria-hidden="true" className="size-4" />
                          {busy === `${book.id}-${format}` ? 'Uploading...' : asset ? 'Replace file' : 'Upload file'}
                          <input
                            id={id}
                            type="file"
                            accept={ACCEPT[format]}
                            className="sr-only"
                            disabled={busy !== null}
                            aria-label={`${asset ? 'Replace' : 'Upload'} ${LABEL[format]} for ${book.title}`}
                            onChange={(e) => onFile(book.id, format, e.target.files?.[0], e.target)}
                          />
                        </Label>
                        <p className="mt-2 text-xs text-bone-400">Up to {mb(UPLOAD_LIMITS[format])}</p>
                      </div>
                    );
                  })}
                </div>
              </Card>
            ))}
          </div>
        )}
      </QueryState>
    </AdminFrame>
  );
}
