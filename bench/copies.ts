// Personal copies benchmark (npm run bench:copies): how long building a buyer's own copy takes, and how
// fast a stored personal copy downloads compared with a master file, over real HTTP on 127.0.0.1.
//  - build: the seeded EPUB and a generated 300-page PDF, personalised BENCH_BUILDS times each (p50/p95),
//    and the first-request cost through the library's openOwnedFile (database, file store, build, store);
//  - download: the same download route serving a stored 300-page personal PDF and a master file of the
//    same kind and size, BENCH_DOWNLOADS transfers each, 4 at a time.
// Writes bench/reports/copies.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { digitalAssets, purchases } from '../src/server/db/schema';
import { seedFilesDir } from '../src/server/platform/operations/seed';
import { readZip } from '../src/server/features/copies/epub-container';
import { personaliseEpub } from '../src/server/features/copies/personalise-epub';
import { personalisePdf } from '../src/server/features/copies/personalise-pdf';
import { createDownloadToken } from '../src/server/features/library/download-link';
import { openOwnedFile } from '../src/server/features/library/owned-file';
import { recordIssuedLink } from '../src/server/features/library/transfers';
import { systemClock } from '../src/server/platform/security/crypto';
import { createTestApp, createUser, type TestClock } from '../src/server/test/helpers';

const port = Number(process.env.BENCH_PORT ?? 3901);
const builds = Number(process.env.BENCH_BUILDS ?? 30);
const downloads = Number(process.env.BENCH_DOWNLOADS ?? 40);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const summary = (ms: number[]) => ({ runs: ms.length, p50ms: +quantile(ms, 0.5).toFixed(1), p95ms: +quantile(ms, 0.95).toFixed(1), maxMs: +Math.max(...ms).toFixed(1) });
const stamp = (i: number) => ({
  fingerprint: `wwdc${i.toString(16).padStart(20, '0')}`,
  ownerName: `Bench Reader ${i}`,
  purchasedAt: new Date('2026-11-21T12:00:00Z'),
  orderReference: `WWD-${i.toString(16).toUpperCase().padStart(10, '0')}`,
});

/** A 300-page novel-like PDF: ~40 lines of text a page, a page number at the top. */
async function makeLongPdf(pages = 300): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const line = 'The tide came in over the harbour wall and nobody on Quay Lane said a word about the boat. ';
  for (let p = 0; p < pages; p += 1) {
    const page = doc.addPage([432, 648]);
    page.drawText(String(p + 1), { x: 210, y: 620, size: 9, font });
    for (let l = 0; l < 40; l += 1) page.drawText(line.slice(0, 78), { x: 40, y: 590 - l * 14, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

async function time<T>(run: () => Promise<T> | T): Promise<[number, T]> {
  const start = performance.now();
  const value = await run();
  return [performance.now() - start, value];
}

const epub = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'));
const epubEntries = await readZip(epub);
const pdf = await makeLongPdf();
console.log(`master EPUB ${(epub.length / 1024).toFixed(1)} KB, 300-page PDF ${(pdf.length / 1024).toFixed(1)} KB`);

// 1. The build alone (in memory).
const epubMs: number[] = [];
const pdfMs: number[] = [];
for (let i = 0; i < builds; i += 1) epubMs.push((await time(() => personaliseEpub(epubEntries, stamp(i))))[0]);
for (let i = 0; i < Math.max(5, Math.round(builds / 3)); i += 1) pdfMs.push((await time(() => personalisePdf(pdf, stamp(i))))[0]);
console.log('build EPUB', summary(epubMs), '\nbuild PDF ', summary(pdfMs));

// 2. First request through the library (database + file store + build + store) and downloads over HTTP.
const t = await createTestApp({ clock: systemClock as unknown as TestClock });
const { db } = t.database;
const [book] = await db.select().from(digitalAssets).where(eq(digitalAssets.format, 'ebook'));
const bookId = book.bookId;
await t.app.deps.files.put(`books/${bookId}/pdf/long.pdf`, pdf, 'application/pdf');
await db.update(digitalAssets).set({ fileUrl: `books/${bookId}/pdf/long.pdf` }).where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'pdf')));
// The master for comparison: the audiobook slot (never personalised) holding the same 300-page PDF.
await t.app.deps.files.put(`books/${bookId}/audiobook/long-master.pdf`, pdf, 'application/pdf');
await db.update(digitalAssets).set({ fileUrl: `books/${bookId}/audiobook/long-master.pdf` }).where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'audiobook')));

async function purchaseOf(format: string, i: number) {
  const user = await createUser(t.database, { displayName: `Bench Reader ${i}` });
  const [row] = await db
    .insert(purchases)
    .values({ userId: user.id, bookId, format, price: 999, orderReference: `BENCH-${format}-${i}-${Date.now().toString(36)}` })
    .returning();
  return row;
}
const firstEpub: number[] = [];
const firstPdf: number[] = [];
const open = async (format: string, i: number) => {
  const opened = await openOwnedFile(t.app.deps, await purchaseOf(format, i), format);
  if (!opened.ok) throw new Error(`no ${format} file: ${opened.reason}`);
  return opened.file;
};
for (let i = 0; i < Math.min(builds, 20); i += 1) firstEpub.push((await time(() => open('ebook', i)))[0]);
for (let i = 0; i < 5; i += 1) firstPdf.push((await time(() => open('pdf', 100 + i)))[0]);
console.log('first request EPUB', summary(firstEpub), '\nfirst request PDF ', summary(firstPdf));

await t.app.listen({ port, host: '127.0.0.1' });
const assets = await db.select().from(digitalAssets).where(eq(digitalAssets.bookId, bookId));
const assetOf = (format: string) => assets.find((a) => a.format === format)!;

async function throughput(format: 'pdf' | 'audiobook') {
  const purchase = await purchaseOf(format, 900);
  // Warm: the personal copy is built and stored before the timing starts.
  const opened = await openOwnedFile(t.app.deps, purchase, format);
  if (!opened.ok) throw new Error(`no ${format} file`);
  const owned = opened.file;
  // Each download gets its own link, recorded as the download route records it (a link serves one transfer).
  const link = async () => {
    const linkId = t.app.deps.random.token(18);
    await recordIssuedLink(db, { linkId, purchaseId: purchase.id, userId: purchase.userId, format, assetId: assetOf(format).id, now: new Date() });
    return `http://127.0.0.1:${port}/files/download/${createDownloadToken(t.app.deps.secret, {
      linkId,
      assetId: assetOf(format).id,
      purchaseId: purchase.id,
      userId: purchase.userId,
      expiresAt: Date.now() + 10 * 60 * 1000,
    })}`;
  };
  let bytes = 0;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < downloads) {
        next += 1;
        const res = await fetch(await link());
        if (!res.ok) throw new Error(`download answered ${res.status}`);
        bytes += (await res.arrayBuffer()).byteLength;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return { fileBytes: owned.size, transfers: downloads, concurrency: 4, megabytesPerSecond: +(bytes / 1024 / 1024 / seconds).toFixed(1), transfersPerSecond: +(downloads / seconds).toFixed(1) };
}
const personal = await throughput('pdf');
const master = await throughput('audiobook');
console.log('download personal copy', personal, '\ndownload master       ', master);
await t.close();

fs.mkdirSync('bench/reports', { recursive: true });
fs.writeFileSync(
  'bench/reports/copies.json',
  JSON.stringify(
    {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      masters: { epubBytes: epub.length, pdfBytes: pdf.length, pdfPages: 300 },
      buildInMemory: { epub: summary(epubMs), pdf300Pages: summary(pdfMs) },
      firstRequest: { epub: summary(firstEpub), pdf300Pages: summary(firstPdf) },
      download: { personalCopy: personal, master },
    },
    null,
    2,
  ),
);
console.log('wrote bench/reports/copies.json');
