/** /admin/files: the digital file of each book and format; upload or replace (buyers keep access). */
import { useState } from 'react';
import { BookOpen, CircleAlert, Headphones, TriangleAlert, Upload } from 'lucide-react';
import { Link } from '@client/lib/router';
import { DIGITAL_FORMATS, type DigitalFormat } from '@shared/constants';
import { UPLOAD_LIMITS } from '@shared/schemas/admin';
import { Card } from '@client/components/ui/card';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/toast-store';
import { useAssets, useBooks, useUploadAsset } from '@client/features/admin/api';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { ChapterPairing } from '@client/features/admin/components/chapter-pairing';
import { formatShortDate } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';
import { countOf } from '@client/lib/plural';
import { EditionNoticeFields, type NoticeChoice } from '@client/features/admin/files/edition-notice-fields';

const LABEL: Record<DigitalFormat, string> = { ebook: 'E-Book (EPUB)', pdf: 'PDF', audiobook: 'Audiobook (MP3 or M4A)' };
/** Which purchase gives the file (decisions 0051 and 0066), so the author knows who receives what they upload. */
const GIVEN_WITH: Record<DigitalFormat, string> = {
  ebook: 'Given with the E-Book, and with every hardcover and paperback while "Include the ebook with print" is on.',
  pdf: 'Given free with every E-Book (bought, included with print, or a gift), with its own download. Not sold on its own; buyers see it once a file is here.',
  audiobook: 'Given with the Audiobook.',
};
const ACCEPT: Record<DigitalFormat, string> = { ebook: '.epub,application/epub+zip', pdf: '.pdf,application/pdf', audiobook: '.mp3,.m4a,.m4b,audio/*' };
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export default function AdminFilesPage() {
  const books = useBooks();
  const assets = useAssets();
  const upload = useUploadAsset();
  const [busy, setBusy] = useState<string | null>(null);
  // Why an upload was refused stays beside its file until the author dismisses it: a problem with an
  // EPUB can take a while to read and fix, and a toast would be gone before that.
  const [problems, setProblems] = useState<Record<string, { fileName: string; message: string }>>({});
  // "Tell owners about this edition" per replaceable e-book or PDF, sent with the next file chosen there.
  const [notices, setNotices] = useState<Record<string, NoticeChoice>>({});
  const noticeOf = (key: string): NoticeChoice => notices[key] ?? { notify: false, note: '' };
  const setProblem = (key: string, problem: { fileName: string; message: string } | null) =>
    setProblems(({ [key]: _old, ...rest }) => (problem ? { ...rest, [key]: problem } : rest));

  const onFile = async (bookId: number, format: DigitalFormat, file: File | undefined, input: HTMLInputElement) => {
    if (!file) return;
    const key = `${bookId}-${format}`;
    if (file.size > UPLOAD_LIMITS[format]) {
      setProblem(key, { fileName: file.name, message: `The file is too large. The limit for the ${LABEL[format]} is ${mb(UPLOAD_LIMITS[format])}.` });
      input.value = '';
      return;
    }
    setBusy(key);
    setProblem(key, null);
    try {
      const choice = noticeOf(key);
      const notice = choice.notify && format !== 'audiobook' ? { note: choice.note } : undefined;
      const asset = await upload.mutateAsync({ bookId, format, file, notice });
      const told = asset.ownersNotified === undefined ? '' : ` ${countOf(asset.ownersNotified, 'owner')} will be told about this edition.`;
      toast({ title: 'File uploaded', description: `${asset.fileName} is now version ${asset.version}.${told}` });
      setNotices(({ [key]: _done, ...rest }) => rest);
    } catch (error) {
      setProblem(key, { fileName: file.name, message: errorText(error) });
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
                    const problem = problems[`${book.id}-${format}`];
                    return (
                      <div key={format} className="rounded-lg border border-ink-700 p-4">
                        <p className="font-medium text-bone-50">{LABEL[format]}</p>
                        <p className="mt-1 text-xs text-bone-400">{GIVEN_WITH[format]}</p>
                        {asset ? (
                          <>
                            <p className="mt-1 text-sm break-all text-bone-300">
                              {asset.fileName} · {asset.fileSizeKb.toLocaleString('en-GB')} KB · v{asset.version}
                              <span className="block text-bone-400">Updated {formatShortDate(asset.updatedAt)}</span>
                            </p>
                            <Link
                              to={format === 'audiobook' ? `/listen/${book.id}` : `/read/${book.id}/${format}`}
                              aria-label={`${format === 'audiobook' ? 'Listen to' : 'Read'} the ${LABEL[format]} of ${book.title}`}
                              className="mt-2 inline-flex items-center gap-1.5 rounded text-sm text-blood-300 underline-offset-2 hover:text-blood-200 hover:underline focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
                            >
                              {format === 'audiobook' ? <Headphones aria-hidden="true" className="size-4" /> : <BookOpen aria-hidden="true" className="size-4" />}
                              {format === 'audiobook' ? 'Listen' : 'Read'}
                            </Link>
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
                        {asset && format !== 'audiobook' ? (
                          <EditionNoticeFields
                            id={`notice-${book.id}-${format}`}
                            value={noticeOf(`${book.id}-${format}`)}
                            disabled={busy !== null}
                            onChange={(next) => setNotices((all) => ({ ...all, [`${book.id}-${format}`]: next }))}
                          />
                        ) : null}
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
                        {problem ? (
                          <div role="alert" className="mt-3 grid gap-2 rounded-md border border-blood-500/60 bg-blood-500/10 p-3 text-sm text-bone-100">
                            <p className="flex gap-2">
                              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blood-300" />
                              <span>
                                <strong className="block font-semibold text-bone-50">{problem.fileName} was not uploaded</strong>
                                <span className="whitespace-pre-line">{problem.message}</span>
                              </span>
                            </p>
                            <button
                              type="button"
                              className="w-fit rounded text-sm text-bone-300 underline underline-offset-2 hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
                              onClick={() => setProblem(`${book.id}-${format}`, null)}
                              aria-label={`Dismiss the problem with ${problem.fileName}`}
                            >
                              Dismiss
                            </button>
                          </div>
                        ) : null}
                      </div>
                    );
                  })}
                </div>
                {['ebook', 'audiobook'].every((format) => assets.data?.some((a) => a.bookId === book.id && a.format === format)) ? (
                  <ChapterPairing bookId={book.id} title={book.title} />
                ) : null}
              </Card>
            ))}
          </div>
        )}
      </QueryState>
    </AdminFrame>
  );
}
