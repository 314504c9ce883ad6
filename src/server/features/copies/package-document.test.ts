import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type Entries, dcValue, manifestItems, packagePath, parsePackage, spineRefs, utf8 } from './epub-container';
import { preflightEpub } from './epub-preflight';
import { personaliseEpub } from './personalise-epub';
import { COMMENTED, PREFIXED, epubWith, epubcheckJar, expectEpubcheckClean } from './test-support';
import { marksIn } from './trace';

const jar = epubcheckJar();
const inCi = Boolean(process.env.CI);
const enc = (s: string) => new TextEncoder().encode(s);
const MARK = 'wwdc0123456789abcdef0123';

const stamp = { fingerprint: MARK, ownerName: 'Ada Quill', purchasedAt: new Date('2026-11-21T10:00:00Z'), orderReference: 'WW-TEST-1' };

function personalised(master: Buffer) {
  const bytes = personaliseEpub(unzipSync(master) as Entries, stamp);
  const entries = unzipSync(bytes) as Entries;
  const opfText = utf8(entries['EPUB/package.opf']);
  const pkg = parsePackage(opfText)!;
  return { bytes, entries, opfText, pkg };
}

/** The text of every Dublin Core identifier in the metadata, as the document has them. */
const identifiers = (pkg: NonNullable<ReturnType<typeof parsePackage>>) =>
  Array.from(pkg.metadata!.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'identifier'), (e) => e.textContent);

describe('the package document, read as XML', () => {
  it('skips what is commented out and reads CDATA as text', () => {
    const pkg = parsePackage(COMMENTED)!;
    expect(manifestItems(pkg).map((i) => i.id)).toEqual(['cover', 'nav', 'c1']);
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['cover', 'c1']);
    expect(dcValue(pkg, 'title')).toBe('Rock & Roll');
  });

  it('reads a prefixed package with single quotes and attributes in any order', () => {
    const pkg = parsePackage(PREFIXED)!;
    expect(manifestItems(pkg).map(({ element: _element, ...item }) => item)).toEqual([
      { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
      { id: 'c1', href: 'c1.xhtml', mediaType: 'application/xhtml+xml', properties: '' },
      { id: 'extra', href: 'cover.xhtml', mediaType: 'application/xhtml+xml', properties: '' },
    ]);
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['c1', 'nav', 'extra']);
    expect(dcValue(pkg, 'identifier')).toBe('urn:uuid:00000000-0000-4000-8000-000000000004');
  });

  it('finds the package through a container with single quotes, a comment and a prefix', () => {
    const container = `<?xml version='1.0'?>
<c:container xmlns:c='urn:oasis:names:tc:opendocument:xmlns:container' version='1.0'>
  <!-- <rootfile full-path="wrong.opf"/> -->
  <c:rootfiles><c:rootfile media-type='application/oebps-package+xml' full-path='EPUB/package.opf'/></c:rootfiles>
</c:container>`;
    expect(packagePath({ 'META-INF/container.xml': enc(container) })).toBe('EPUB/package.opf');
  });

  it('gives no package for a file that is not XML, and preflight says so', async () => {
    expect(parsePackage('<package><manifest></package>')).toBeNull();
    // An entity the document defines for itself is refused, never expanded (no entity bombs).
    expect(parsePackage('<!DOCTYPE package [<!ENTITY big "aaaaaaaa">]><package>&big;&big;</package>')).toBeNull();
    const broken = COMMENTED.replace('<dc:language>en</dc:language>', '<dc:language>en</dc:lang>');
    expect(await preflightEpub(epubWith(broken))).toEqual(['The package file "EPUB/package.opf" is not well-formed XML.']);
    expect(await preflightEpub(epubWith(COMMENTED, '<container><rootfiles>'))).toEqual(['META-INF/container.xml is not well-formed XML.']);
  });

  it('passes preflight for both, with nothing read from the comments', async () => {
    expect(await preflightEpub(epubWith(COMMENTED))).toEqual([]);
    expect(await preflightEpub(epubWith(PREFIXED))).toEqual([]);
  });
});

describe('a personal copy of an awkwardly written package', () => {
  it('puts the identifier in the metadata and the page after the cover, leaving the comments alone', async () => {
    const { bytes, opfText, pkg } = personalised(epubWith(COMMENTED));
    expect(identifiers(pkg)).toEqual(['urn:uuid:00000000-0000-4000-8000-000000000003', `urn:copy:${MARK}`]);
    expect(manifestItems(pkg).map((i) => i.id)).toEqual(['cover', 'nav', 'c1', 'ex-libris']);
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['cover', 'ex-libris', 'c1']);
    for (const comment of COMMENTED.match(/<!--[\s\S]*?-->/g)!) expect(opfText).toContain(comment);
    expect(opfText).toContain('<![CDATA[Rock & Roll]]>');
    expect(await marksIn(bytes)).toEqual([MARK]);
  });

  it('writes new elements with the opf: prefix and puts the page first when there is no cover', async () => {
    const { bytes, opfText, pkg } = personalised(epubWith(PREFIXED));
    expect(identifiers(pkg)).toEqual(['urn:uuid:00000000-0000-4000-8000-000000000004', `urn:copy:${MARK}`]);
    expect(opfText).toContain('<opf:item id="ex-libris" href="ex-libris.xhtml" media-type="application/xhtml+xml"/>');
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['ex-libris', 'c1', 'nav', 'extra']);
    expect(opfText).toContain('<opf:spine>\n    <opf:itemref idref="ex-libris"/>\n    <opf:itemref idref="c1"/>');
    expect(await marksIn(bytes)).toEqual([MARK]);
  });

  it('keeps ids unique: a master that already has the names gets the next free ones', () => {
    const taken = COMMENTED.replace('<dc:title>', '<dc:title id="ex-libris">').replace('<dc:language>', '<dc:language id="copy-id">');
    const { pkg } = personalised(epubWith(taken));
    const copyId = Array.from(pkg.metadata!.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'identifier')).at(-1)!;
    expect(copyId.getAttribute('id')).toBe('copy-id-2');
    expect(spineRefs(pkg).map((r) => r.idref)).toEqual(['cover', 'ex-libris-2', 'c1']);
  });

  it.skipIf(!jar && !inCi)('both copies pass epubcheck with no error', { timeout: 400_000 }, async () => {
    await expectEpubcheckClean(epubWith(COMMENTED));
    await expectEpubcheckClean(personalised(epubWith(COMMENTED)).bytes);
    await expectEpubcheckClean(personalised(epubWith(PREFIXED)).bytes);
  });
});
