import { ZipDamaged, verifyZip } from '../../platform/storage/zip';
import { dcValue, manifestItems, packagePath, parsePackage, parseXml, readZip, resolveHref, spineRefs, utf8, type Entries } from './epub-container';

const MIMETYPE = 'application/epub+zip';
/** A BCP 47 language tag as readers accept it: a 2-3 letter language and optional subtags (en, en-GB, pt-BR). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** Checks of the zip's first local header: the mimetype entry must come first, uncompressed, without extras. */
function mimetypeProblems(bytes: Buffer): string[] {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== 0x04034b50) return ['The file is not a ZIP archive (an EPUB is a ZIP container).'];
  const nameLength = bytes.readUInt16LE(26);
  const extraLength = bytes.readUInt16LE(28);
  const name = bytes.subarray(30, 30 + nameLength).toString('latin1');
  if (name !== 'mimetype') return ['The first entry of the archive must be the file "mimetype".'];
  const problems: string[] = [];
  if (bytes.readUInt16LE(8) !== 0) problems.push('The "mimetype" entry is compressed; it must be stored without compression.');
  else {
    const start = 30 + nameLength + extraLength;
    const content = bytes.subarray(start, start + bytes.readUInt32LE(18)).toString('latin1');
    if (content !== MIMETYPE) problems.push(`The "mimetype" entry must contain exactly "${MIMETYPE}".`);
  }
  if (extraLength !== 0) problems.push('The "mimetype" entry must not carry an extra field.');
  return problems;
}

function packageProblems(entries: Entries, names: Set<string>): string[] {
  if (!entries['META-INF/container.xml']) return ['META-INF/container.xml is missing.'];
  if (!parseXml(utf8(entries['META-INF/container.xml']))) return ['META-INF/container.xml is not well-formed XML.'];
  const opfPath = packagePath(entries);
  if (!opfPath) return ['META-INF/container.xml does not name a package (OPF) file.'];
  const opfBytes = entries[opfPath];
  if (!opfBytes) return [`The package file "${opfPath}" named in META-INF/container.xml is missing.`];
  const opf = parsePackage(utf8(opfBytes));
  if (!opf) return [`The package file "${opfPath}" is not well-formed XML.`];
  const problems: string[] = [];
  if (!dcValue(opf, 'identifier')) problems.push('The package file has no dc:identifier.');
  if (!dcValue(opf, 'title')) problems.push('The package file has no dc:title.');
  const language = dcValue(opf, 'language');
  if (!language) problems.push('The package file has no dc:language.');
  else if (!LANGUAGE_TAG.test(language)) problems.push(`The dc:language "${language}" is not a valid language tag (for example en or en-GB).`);
  const items = manifestItems(opf);
  if (items.length === 0) problems.push('The package file has no manifest items.');
  for (const item of items) {
    if (!item.href) {
      problems.push(`The manifest item "${item.id}" has no href.`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(item.href)) continue; // A remote resource, not part of the archive.
    if (!names.has(resolveHref(opfPath, item.href))) problems.push(`The manifest lists "${item.href}", but that file is not in the EPUB.`);
  }
  const ids = new Set(items.map((i) => i.id));
  const spine = spineRefs(opf);
  if (spine.length === 0) problems.push('The package file has no spine (reading order).');
  for (const ref of spine) if (!ids.has(ref.idref)) problems.push(`The spine refers to "${ref.idref}", which is not in the manifest.`);
  return problems;
}

/**
 * What makes Kindle (Send to Kindle, KDP) and e-readers refuse an EPUB, checked before the file replaces the
 * master. Returns one plain sentence per problem; empty means the file is fit to sell. A zip bomb is not a
 * problem to list but a refusal: it throws ZipRefused, whose message names the limit.
 */
export async function preflightEpub(data: Buffer): Promise<string[]> {
  const problems = mimetypeProblems(data);
  if (problems[0]?.startsWith('The file is not a ZIP')) return problems;
  let entries: Entries;
  let names: Set<string>;
  try {
    // Every entry is inflated once and dropped, so no entry of a stored master can lie about its size; then
    // only the container and package files are kept, the rest is checked by name.
    names = new Set((await verifyZip(data)).map((entry) => entry.name));
    entries = await readZip(data, (name) => name === 'META-INF/container.xml' || /\.opf$/i.test(name));
  } catch (error) {
    if (error instanceof ZipDamaged) return [...problems, 'The archive is damaged and cannot be read.'];
    throw error;
  }
  return [...problems, ...packageProblems(entries, names)];
}

/** One message for the admin naming every problem. */
export function preflightMessage(problems: string[]): string {
  const list = problems.map((p, i) => `${i + 1}. ${p}`).join(' ');
  return `This EPUB would be refused by Kindle and e-readers. ${problems.length === 1 ? 'Problem' : `${problems.length} problems`}: ${list}`;
}
