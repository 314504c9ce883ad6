// The reading room's share of the page-weight bench: the JavaScript the reader route loads (gzipped) and
// the time from navigation to the first rendered page of the seeded EPUB (the reader's own
// `reader:first-page` user-timing mark), for a signed-in owner at phone and desktop widths.
import zlib from 'node:zlib';

/** Strings only the reader or player code contains: the home page must never load them. */
export const READER_MARKERS = ['foliate-view', 'GlobalWorkerOptions', 'Sleep timer'];

async function ownerOfEbook(page) {
  const csrf = async () => (await (await page.request.get('/api/csrf-token')).json()).csrfToken;
  const post = async (url, data) => {
    const res = await page.request.post(url, { data, headers: { 'x-csrf-token': await csrf() } });
    if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await post('/api/users/register', { email: `bench_${id}@example.com`, username: `bench_${id}`, displayName: 'Bench Reader', password: 'Quiet-River-42!' });
  const { id: bookId } = await (await page.request.get('/api/books/featured')).json();
  const { url } = await post('/api/checkout', { bookId, format: 'ebook' });
  await post(`/api/checkout/sessions/${url.split('/').pop()}/pay`, {});
  return bookId;
}

export async function measureReader(browser, base, { width, height }) {
  const context = await browser.newContext({ baseURL: base, viewport: { width, height } });
  try {
    const page = await context.newPage();
    const bookId = await ownerOfEbook(page);
    const scripts = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, gzipBytes: zlib.gzipSync(body, { level: 9 }).length })));
    });
    await page.goto(`/read/${bookId}/ebook`);
    await page.waitForFunction(() => performance.getEntriesByName('reader:first-page').length > 0, null, { timeout: 30_000 });
    const firstPageMs = await page.evaluate(() => Math.round(performance.getEntriesByName('reader:first-page')[0].startTime));
    // Chunks still arriving right after the first page (the contents, settings) count too.
    await page.waitForTimeout(1500);
    const files = await Promise.all(scripts);
    const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
    return {
      route: '/read/{bookId}/ebook',
      viewport: `${width}x${height}`,
      jsGzipKB: kb(files.reduce((s, f) => s + f.gzipBytes, 0)),
      firstPageMs,
      files: files.map((f) => ({ url: f.url, gzipKB: kb(f.gzipBytes) })).sort((a, b) => b.gzipKB - a.gzipKB),
    };
  } finally {
    await context.close();
  }
}
