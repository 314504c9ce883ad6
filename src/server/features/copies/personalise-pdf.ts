import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts, grayscale } from 'pdf-lib';
import type { CopyStamp } from './personalise-epub';

const FOOTER_SIZE = 7;

/** The document information dictionary (setKeywords has just made sure there is one). */
const infoDict = (doc: PDFDocument) => doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);

/**
 * The buyer's own PDF: one small grey line at the foot of every page ("Licensed to {name} · order {ref}"),
 * real text so it can be searched and extracted, and the fingerprint in the document information
 * (keywords and a CopyId entry); tracing reads it back through pdf-lib.
 */
export async function personalisePdf(master: Uint8Array, stamp: CopyStamp): Promise<Buffer> {
  // updateMetadata false keeps the producer and dates, so the same inputs give the same bytes.
  const doc = await PDFDocument.load(master, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const supported = new Set(font.getCharacterSet());
  // Helvetica covers Latin-1 and a little more; other letters lose their accents or become "?".
  const printable = (text: string) =>
    [...text]
      .map((c) => (supported.has(c.codePointAt(0)!) ? c : c.normalize('NFKD').replace(/[^\u0020-\u007e]/g, '') || '?'))
      .join('');
  const line = printable(`Licensed to ${stamp.ownerName} · order ${stamp.orderReference}`);
  const width = font.widthOfTextAtSize(line, FOOTER_SIZE);
  for (const page of doc.getPages()) {
    const box = page.getCropBox();
    page.drawText(line, {
      x: box.x + Math.max(6, (box.width - width) / 2),
      y: box.y + 10,
      size: FOOTER_SIZE,
      font,
      color: grayscale(0.45),
    });
  }
  const keywords = doc.getKeywords();
  doc.setKeywords([...(keywords ? [keywords] : []), stamp.fingerprint]);
  infoDict(doc).set(PDFName.of('CopyId'), PDFString.of(stamp.fingerprint));
  return Buffer.from(await doc.save());
}

/** The mark stored in a PDF's information dictionary, read back through pdf-lib (for compressed files). */
export async function pdfFingerprintText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  const info = doc.context.trailerInfo.Info ? infoDict(doc) : null;
  const copyId = info?.lookup(PDFName.of('CopyId'));
  return [doc.getKeywords() ?? '', doc.getSubject() ?? '', copyId instanceof PDFString ? copyId.decodeText() : ''].join(' ');
}
