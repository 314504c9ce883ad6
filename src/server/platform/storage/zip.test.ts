import { inflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { deflatedZeros, honestBomb, lyingBomb, watch, zipOf } from '../../test/zip-bombs';
import { ZIP_LIMITS, ZipDamaged, ZipRefused, readZip, verifyZip, zipDirectory } from './zip';

const MB = 1024 * 1024;
const refusal = (error: unknown) => (error instanceof ZipRefused ? error.message : `not refused: ${String(error)}`);

describe('bounded zip reading', () => {
  it('generates real bombs: the repeated block inflates to exactly its size in zeros', () => {
    const eight = inflateRawSync(deflatedZeros(8));
    expect(eight.length).toBe(8 * MB);
    expect(eight.every((b) => b === 0)).toBe(true);
    expect(deflatedZeros(1024).length).toBeLessThan(1.1 * MB);
  });

  it('reads an honest archive in order, and only the entries asked for', async () => {
    const text = 'The rain had not stopped for three days. '.repeat(200);
    const zip = Buffer.from(zipSync({ mimetype: [new TextEncoder().encode('application/epub+zip'), { level: 0 }], 'a/one.xhtml': new TextEncoder().encode(text), 'b.css': new TextEncoder().encode('p{}') }));
    const all = await readZip(zip);
    expect(all.map((e) => e.name)).toEqual(['mimetype', 'a/one.xhtml', 'b.css']);
    expect(all[1].data.toString('utf8')).toBe(text);
    expect((await readZip(zip, (name) => name.endsWith('.css'))).map((e) => e.name)).toEqual(['b.css']);
    expect((await verifyZip(zip)).map((e) => e.name)).toEqual(['mimetype', 'a/one.xhtml', 'b.css']);
  });

  it('refuses 1 GB of zeros from the directory alone, naming the total limit', async () => {
    const bomb = honestBomb('OEBPS/chapter.xhtml', 1024);
    const watched = await watch(() => readZip(bomb).catch(refusal));
    expect(watched.result).toBe('This file was refused as a zip bomb: it would unpack to 1,024 MB, and the limit is 256 MB.');
    expect(watched.ms).toBeLessThan(1000);
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
  });

  it('stops inflating an entry the moment it passes the size it declared', async () => {
    const bomb = lyingBomb('OEBPS/chapter.xhtml', 1024);
    expect(() => zipDirectory(bomb)).not.toThrow();
    const watched = await watch(() => verifyZip(bomb).catch(refusal));
    expect(watched.result).toBe('This file was refused as a zip bomb: "OEBPS/chapter.xhtml" unpacks to more than the 1 KB its archive declares.');
    expect(watched.ms).toBeLessThan(1000);
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
    await expect(readZip(bomb)).rejects.toThrow(ZipRefused);
  });

  it('refuses an entry packed tighter than the ratio allows, though under the total', async () => {
    const bomb = honestBomb('OEBPS/images/cover.png', 200);
    expect(await readZip(bomb).catch(refusal)).toMatch(
      /^This file was refused as a zip bomb: "OEBPS\/images\/cover.png" would unpack to [\d,]+ times its packed size, and the limit is 100 times\.$/,
    );
  });

  it('refuses many small entries that together unpack far beyond the archive', async () => {
    // Each 1 MB entry is under the per-entry floor; together they are 1,000 times the archive's size.
    const entries = Array.from({ length: 200 }, (_, i) => ({ name: `page-${i}.xhtml`, packed: deflatedZeros(1), declaredSize: MB }));
    expect(await readZip(zipOf(entries)).catch(refusal)).toMatch(
      /^This file was refused as a zip bomb: it would unpack to [\d,]+ times its own size, and the limit is 100 times\.$/,
    );
  });

  it('refuses too many entries, and entries that share their packed bytes', async () => {
    const many = zipOf(Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `f${i}`, packed: Buffer.alloc(0), declaredSize: 0, method: 0 as const })));
    expect(await readZip(many).catch(refusal)).toBe('This file was refused as a zip bomb: it holds 10,001 files, and the limit is 10,000.');
    // Fifty names for one stored 100 KB page: within every size limit, but no honest archive does it.
    const page = Buffer.alloc(100 * 1024, 'a');
    const shared = zipOf(
      Array.from({ length: 50 }, (_, i) => ({ name: `part-${i}.xhtml`, packed: page, declaredSize: page.length, method: 0 as const })),
      { shareFirst: true },
    );
    expect(await readZip(shared).catch(refusal)).toBe('This file was refused as a zip bomb: several of its entries unpack the same packed bytes.');
  });

  it('calls a broken or foreign file damaged, not a bomb', async () => {
    await expect(readZip(Buffer.from('PK but not a zip at all'))).rejects.toThrow(ZipDamaged);
    const zip = Buffer.from(zipSync({ 'a.txt': new TextEncoder().encode('hello '.repeat(1000)) }));
    await expect(readZip(zip.subarray(0, zip.length - 30))).rejects.toThrow(ZipDamaged);
    const corrupt = Buffer.from(zip);
    corrupt.fill(0xff, 40, 60);
    await expect(readZip(corrupt)).rejects.toThrow(ZipDamaged);
  });
});
