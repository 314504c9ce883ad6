import { checkPdf } from '../../platform/storage/pdf';
import { ZipDamaged } from '../../platform/storage/zip';
import { readZip, utf8 } from './epub-container';
import { fingerprintsIn } from './fingerprint';
import { pdfFingerprintText } from './personalise-pdf';

const TEXT_ENTRY = /\.(opf|xhtml|html|htm|xml|ncx|svg|css)$/i;

/**
 * Every purchase mark found in a file. An EPUB is opened and its text files read (so a re-zipped copy
 * with other compression still shows its marks); a PDF is read raw, then through its information dictionary.
 * A zip bomb is refused (ZipRefused), never opened; so is a PDF whose compressed streams are one (PdfRefused).
 */
export async function marksIn(bytes: Buffer): Promise<string[]> {
  const marks = new Set<string>();
  if (bytes.subarray(0, 2).toString('latin1') === 'PK') {
    try {
      for (const data of Object.values(await readZip(bytes, (name) => TEXT_ENTRY.test(name)))) {
        for (const mark of fingerprintsIn(utf8(data))) marks.add(mark);
      }
    } catch (error) {
      // A damaged archive (or a file that only starts like one): fall back to the raw bytes below.
      if (!(error instanceof ZipDamaged)) throw error;
    }
  }
  for (const mark of fingerprintsIn(bytes.toString('latin1'))) marks.add(mark);
  if (marks.size === 0 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    // pdf-lib inflates on the event loop without limits: the streams are measured first, off it.
    await checkPdf(bytes);
    try {
      for (const mark of fingerprintsIn(await pdfFingerprintText(bytes))) marks.add(mark);
    } catch {
      // Not a readable PDF: nothing to trace.
    }
  }
  return [...marks];
}
