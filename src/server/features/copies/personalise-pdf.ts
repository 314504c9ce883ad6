import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts, grayscale } from 'pdf-lib';
import { xmlPrintable } from '@shared/schemas/common';
import type { CopyStamp } from './personalise-epub';

const FOOTER_SIZE = 7;

/** The document information dictionary (setKeywords has just made sure there is one). */
const infoDict = (doc: PDFDocument) => doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);

/**
 * The buyer's own PDF: one small grey line at the foot of every page ("Licensed to {name} · order {ref}"),
 * real text so it can be searched and extracted, and the fingerprint in the document information
 * (keywords and a CopyId entry); tracing reads it back through pdf-lib. The master must have passed
 * checkPdf (platform/storage/pdf.ts), as every PDF must before pdf-lib loads it: pdf-lib inflates without limits.
 */
export async function personalisePdf(master: Uint8Array, stamp: CopyStamp): Promise<Buffer> {
  // updateMetadata false keeps the producer and dates, so the same inputs give the same bytes.
  const doc = await PDFDocument.load(master, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const supported = new Set(font.getCharacterSet());
  // Helvetica covers Latin-1 and a little more; other letters lose their accents or become "?". Control
  // characters and noncharacters print as nothing at all (decision 0058).
  const printable = (text: string) =>
    [...xmlPrintable(text)]
      .map((c) => (supported.has(c.codePointAt(0)!) ? c : c.normalize('NFKD').replace(/[^\u0020-\u007e]/g, '') || '?'))
      .join('');
  if (stamp.gift) await addDedicationPage(doc, stamp.gift, printable);
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

/** Words to lines no wider than `width` at `size` (a word longer than a line gets a line of its own). */
function wrap(text: string, width: number, measure: (t: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let current = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = current ? `${current} ${word}` : word;
      if (current && measure(candidate) > width) {
        lines.push(current);
        current = word;
      } else current = candidate;
    }
    lines.push(current);
  }
  return lines;
}

/** A claimed gift's copy opens with a dedication page: who gave it and their message. */
async function addDedicationPage(doc: PDFDocument, gift: { from: string; message: string | null }, printable: (t: string) => string) {
  const first = doc.getPage(0);
  const { width, height } = first.getSize();
  const page = doc.insertPage(0, [width, height]);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const margin = width * 0.15;
  let y = height * 0.62;
  const heading = printable(`A gift from ${gift.from}`);
  page.drawText(heading, { x: (width - italic.widthOfTextAtSize(heading, 16)) / 2, y, size: 16, font: italic, color: grayscale(0.15) });
  y -= 36;
  const size = 12;
  // Wrapped before the font's character check, which would turn line breaks into "?".
  for (const raw of wrap(gift.message ?? '', width - 2 * margin, (t) => italic.widthOfTextAtSize(printable(t), size))) {
    const line = printable(raw);
    page.drawText(line, { x: (width - italic.widthOfTextAtSize(line, size)) / 2, y, size, font: italic, color: grayscale(0.2) });
    y -= size * 1.5;
  }
}

/** The mark stored in a PDF's information dictionary, read back through pdf-lib (for compressed files; checkPdf first). */
export async function pdfFingerprintText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  const info = doc.context.trailerInfo.Info ? infoDict(doc) : null;
  const copyId = info?.lookup(PDFName.of('CopyId'));
  return [doc.getKeywords() ?? '', doc.getSubject() ?? '', copyId instanceof PDFString ? copyId.decodeText() : ''].join(' ');
}
