/** Test-only helpers for the copies suites: small EPUBs to break on purpose, epubcheck, MIME attachments. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { zipSync, type Zippable } from 'fflate';
import type { TestAgent } from '../../test/helpers';

const enc = (s: string) => new TextEncoder().encode(s);

export interface TestEpubOptions {
  language?: string | null;
  compressMimetype?: boolean;
  title?: string | null;
  body?: string;
}

/** A small valid EPUB 3 (or a deliberately broken one). */
export function makeTestEpub(options: TestEpubOptions = {}): Buffer {
  const { language = 'en', compressMimetype = false, title = 'Test Book', body = 'Chapter one.' } = options;
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000001</dc:identifier>
    ${title === null ? '' : `<dc:title>${title}</dc:title>`}
    ${language === null ? '' : `<dc:language>${language}</dc:language>`}
    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="c1"/></spine>
</package>`;
  const page = (t: string, inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en"><head><meta charset="UTF-8"/><title>${t}</title></head><body>${inner}</body></html>`;
  const files: Zippable = {
    mimetype: [enc('application/epub+zip'), { level: compressMimetype ? 9 : 0 }],
    'META-INF/container.xml': enc(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'EPUB/package.opf': enc(opf),
    'EPUB/nav.xhtml': enc(page('Contents', '<nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li></ol></nav>')),
    'EPUB/c1.xhtml': enc(page('One', `<p>${body}</p>`)),
  };
  return Buffer.from(zipSync(files, { mtime: new Date('2026-01-01T00:00:00Z') }));
}

// Debian's package installs the jar; its /usr/bin/epubcheck is the same jar made executable.
const EPUBCHECK_JARS = ['/usr/share/java/epubcheck.jar', '/usr/bin/epubcheck'];
/** The epubcheck jar (Debian's package), or null when it is not installed here. */
export function epubcheckJar(): string | null {
  const fromEnv = process.env.EPUBCHECK_JAR;
  return [fromEnv, ...EPUBCHECK_JARS].find((p): p is string => Boolean(p) && fs.existsSync(p!)) ?? null;
}

/** Runs the real epubcheck on a file; resolves with its exit code and report. */
export function runEpubcheck(jar: string, file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'java',
      ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-jar', jar, file],
      { timeout: 170_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Package documents written the awkward ways real books are, and an EPUB around one. */
const plainPage = (title: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en"><head><meta charset="UTF-8"/><title>${title}</title></head><body>${body}</body></html>`;

/** An EPUB whose package document is written as `opf`, with a cover, a contents page and one chapter. */
export function epubWith(opf: string, container?: string): Buffer {
  const files: Zippable = {
    mimetype: [enc('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': enc(
      container ??
        `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ),
    'EPUB/package.opf': enc(opf),
    'EPUB/cover.xhtml': enc(plainPage('Cover', '<p>The cover.</p>')),
    'EPUB/nav.xhtml': enc(plainPage('Contents', '<nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li></ol></nav>')),
    'EPUB/c1.xhtml': enc(plainPage('One', '<p>Chapter one.</p>')),
  };
  return Buffer.from(zipSync(files, { mtime: new Date('2026-01-01T00:00:00Z') }));
}

// Comments that name package markup: a commented-out manifest before the real one, a commented-out item
// and itemref, and a `</metadata>` in a note inside the metadata. None of it is markup.
export const COMMENTED = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <!-- Old layout, kept for reference: <manifest><item id="ghost" href="ghost.xhtml" media-type="application/xhtml+xml"/></manifest> -->
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000003</dc:identifier>
    <!-- Editors: new entries go above </metadata>. -->
    <dc:title><![CDATA[Rock & Roll]]></dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <!-- <item id="old" href="old.xhtml" media-type="application/xhtml+xml"/> -->
    <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine>
    <!-- <itemref idref="old"/> -->
    <itemref idref="cover"/>
    <itemref idref="c1"/>
  </spine>
</package>
`;

// The OPF namespace under an `opf:` prefix, single-quoted attributes in another order, and no cover page.
export const PREFIXED = `<?xml version='1.0' encoding='UTF-8'?>
<opf:package unique-identifier='id' version='3.0' xmlns:opf='http://www.idpf.org/2007/opf' xmlns:dc='http://purl.org/dc/elements/1.1/'>
  <opf:metadata>
    <dc:language>en</dc:language>
    <dc:title>Prefixed</dc:title>
    <dc:identifier id='id'>urn:uuid:00000000-0000-4000-8000-000000000004</dc:identifier>
    <opf:meta property='dcterms:modified'>2026-01-01T00:00:00Z</opf:meta>
  </opf:metadata>
  <opf:manifest>
    <opf:item media-type='application/xhtml+xml' properties='nav' href='nav.xhtml' id='nav'/>
    <opf:item media-type='application/xhtml+xml' href='c1.xhtml' id='c1'/>
    <opf:item href='cover.xhtml' id='extra' media-type='application/xhtml+xml'/>
  </opf:manifest>
  <opf:spine>
    <opf:itemref idref='c1'/>
    <opf:itemref linear='no' idref='nav'/>
    <opf:itemref linear='no' idref='extra'/>
  </opf:spine>
</opf:package>
`;

/** Runs epubcheck on the bytes and expects a clean report (the tool must be installed). */
export async function expectEpubcheckClean(bytes: Buffer) {
  const jar = epubcheckJar();
  if (!jar) throw new Error('epubcheck is required in CI: apt-get install epubcheck');
  const file = path.join(os.tmpdir(), `checked-${process.pid}-${Date.now()}.epub`);
  fs.writeFileSync(file, bytes);
  try {
    const { code, output } = await runEpubcheck(jar, file);
    expect(output).toContain('No errors or warnings detected');
    expect(code, output).toBe(0);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

export interface MimePart {
  headers: string;
  contentType: string;
  fileName: string | null;
  body: Buffer;
}

/** Splits a raw multipart mail into its leaf parts, decoding base64 bodies (enough for our own mail). */
export function mimeParts(raw: string): MimePart[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  const parts: MimePart[] = [];
  for (const chunk of raw.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.indexOf('\r\n\r\n');
    const headers = chunk.slice(0, split);
    const body = chunk.slice(split + 4).replace(/\r\n$/, '');
    if (/content-type:\s*multipart\//i.test(headers)) {
      parts.push(...mimeParts(chunk));
      continue;
    }
    const base64 = /content-transfer-encoding:\s*base64/i.test(headers);
    parts.push({
      headers,
      contentType: (/content-type:\s*([^;\r\n]+)/i.exec(headers)?.[1] ?? '').trim(),
      fileName: /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1] ?? null,
      body: base64 ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'utf8'),
    });
  }
  return parts;
}

const BOUNDARY = '----copiesTestBoundary';
export const MULTIPART_CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

export interface FormPart {
  field: string;
  /** Absent: a plain field. Raw bytes, so a test can send a name no browser would. */
  fileName?: string | Buffer;
  data: Buffer | string;
}

/** A multipart body of these parts; `close: false` leaves out the closing boundary (a body cut short). */
export function multipartBody(parts: FormPart[], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const fileName = part.fileName === undefined ? [] : [Buffer.from('; filename="'), Buffer.from(part.fileName), Buffer.from('"')];
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"`), ...fileName);
    chunks.push(Buffer.from(part.fileName === undefined ? '\r\n\r\n' : '\r\nContent-Type: application/octet-stream\r\n\r\n'));
    chunks.push(Buffer.from(part.data), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function sendFile(method: 'POST' | 'PUT', agent: TestAgent, url: string, fileName: string | Buffer, data: Buffer) {
  const payload = multipartBody([{ field: 'file', fileName, data }]);
  return agent.request({ method, url, payload, headers: { 'content-type': MULTIPART_CONTENT_TYPE } });
}

/** POST a file as multipart field "file". */
export const postFile = (agent: TestAgent, url: string, fileName: string | Buffer, data: Buffer) => sendFile('POST', agent, url, fileName, data);
/** PUT a file as multipart field "file" (the admin's file uploads). */
export const putFile = (agent: TestAgent, url: string, fileName: string | Buffer, data: Buffer) => sendFile('PUT', agent, url, fileName, data);
