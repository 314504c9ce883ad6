import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { manifestItems, parsePackage, spineRefs } from '../../platform/storage/epub-package';
import { seedFilesDir } from '../../platform/operations/seed';
import { COMMENTED, PREFIXED, epubWith, epubcheckJar, expectEpubcheckClean } from '../copies/test-support';
import { cutSampleEpub } from './sample-epub';

const jar = epubcheckJar();
const inCi = Boolean(process.env.CI);
const PURCHASE = 'https://example.test/#purchase';

const cut = (epub: Buffer) =>
  cutSampleEpub(
    Object.entries(unzipSync(epub)).map(([name, data]) => ({ name, data: Buffer.from(data) })),
    PURCHASE,
  );

function samplePackage(epub: Buffer) {
  const bytes = cut(epub);
  const text = Buffer.from(unzipSync(bytes)['EPUB/package.opf']).toString('utf8');
  return { bytes, text, pkg: parsePackage(text)! };
}

describe('the reading sample of an awkwardly written package', () => {
  it('keeps the pages up to the cut, adds its own, and leaves the comments as they were', () => {
    const { text, pkg } = samplePackage(epubWith(COMMENTED));
    expect(manifestItems(pkg).map((i) => i.id)).toEqual(['cover', 'c1', 'sample-nav', 'sample-end']);
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['cover', 'c1', 'sample-end']);
    for (const comment of COMMENTED.match(/<!--[\s\S]*?-->/g)!) expect(text).toContain(comment);
  });

  it('writes its own items with the opf: prefix of the book', () => {
    const { text, pkg } = samplePackage(epubWith(PREFIXED));
    // The contents page leaves the spine; the page outside the reading order stays, as it does in any book.
    expect(manifestItems(pkg).map((i) => i.id)).toEqual(['c1', 'extra', 'sample-nav', 'sample-end']);
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['c1', 'extra', 'sample-end']);
    expect(text).toContain('<opf:itemref idref="c1"/>\n    <opf:itemref linear="no" idref="extra"/>\n    <opf:itemref idref="sample-end"/>\n  </opf:spine>');
  });

  it.skipIf(!jar && !inCi)('each sample passes epubcheck with no error', { timeout: 400_000 }, async () => {
    await expectEpubcheckClean(cut(epubWith(COMMENTED)));
    await expectEpubcheckClean(cut(epubWith(PREFIXED)));
    await expectEpubcheckClean(cut(fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'))));
  });
});
