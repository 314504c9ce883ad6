import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FILE_NOT_READY_MESSAGE } from '@shared/schemas/library';
import type { LibraryItem } from '@shared/schemas/library';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import { ProfileLibrary } from './profile-library';
import ReviewCopiesPage from './review-copies';

const book = { id: 1, title: 'What We Owe the Dead', coverImage: '/images/cover.svg' };
const item = (over: Partial<LibraryItem> & { id: number; format: LibraryItem['format'] }): LibraryItem => ({
  bookId: 1,
  userId: 7,
  downloadCount: 0,
  maxDownloads: 1,
  downloadUsed: false,
  lastDownloaded: null,
  purchaseDate: '2026-11-01T10:00:00.000Z',
  book,
  ...over,
});

function renderTab(userId: number | null = 7) {
  return renderWithRouter([
    { element: <><Outlet /><Toaster /></>, children: [{ path: '/profile', element: <ProfileLibrary userId={userId} /> }] },
  ], '/profile');
}

const rowFor = (label: string) => screen.getByText(label, { selector: 'span.font-medium' }).closest('li')!;

/** The row's Download opens the word about the one download; "Download now" spends it. */
async function confirmDownload(name: string) {
  fireEvent.click(await screen.findByRole('button', { name }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Download now' }));
}

describe('the profile library', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('without a userId asks the reader to log in', () => {
    mockFetch({});
    renderTab(null);
    expect(screen.getByRole('heading', { name: /Your Library/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Log in/ })).toHaveAttribute('href', '/login');
  });

  it('shows a loading skeleton, then the empty state with Browse Books', async () => {
    let release: ((r: Response) => void) | null = null;
    mockFetch({ '/api/library/books': () => new Promise((r) => (release = r)), '/api/library/orders': () => json([]) });
    renderTab();
    expect(screen.getByText('Loading your library')).toBeInTheDocument();
    await waitFor(() => expect(release).not.toBeNull());
    act(() => release!(json([])));
    expect(await screen.findByText("You haven't purchased any digital content yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Books' })).toHaveAttribute('href', '/#purchase');
  });

  it('treats a non-ok answer or a non-array body as an empty library', async () => {
    mockFetch({ '/api/library/books': () => json({ message: 'nope' }, 500), '/api/library/orders': () => json([]) });
    renderTab();
    expect(await screen.findByText("You haven't purchased any digital content yet.")).toBeInTheDocument();
  });

  it('on a network failure shows the error toast and a Try Again that reloads', async () => {
    let fail = true;
    const fetch = mockFetch({
      '/api/library/books': () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : json([item({ id: 1, format: 'ebook' })])),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    const tryAgain = await screen.findByRole('button', { name: 'Try Again' }, { timeout: 10_000 });
    expect(screen.getAllByText('Error loading your purchases. Please try again.').length).toBeGreaterThan(0);
    // 1 attempt + 2 retries.
    expect(fetch.mock.calls.filter(([u]) => String(u) === '/api/library/books')).toHaveLength(3);
    fail = false;
    fireEvent.click(tryAgain);
    expect(await screen.findByText('E-Book')).toBeInTheDocument();
  });

  it('groups by book, collapses duplicate formats (highest count wins) and shows icons per format', async () => {
    mockFetch({
      '/api/library/books': () =>
        json([
          item({ id: 1, format: 'ebook' }),
          item({ id: 2, format: 'ebook', downloadCount: 1, downloadUsed: true }),
          item({ id: 3, format: 'audiobook' }),
          item({ id: 4, format: 'pdf' }),
          item({ id: 5, format: 'mobi' as LibraryItem['format'] }),
        ]),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    expect(await screen.findByRole('heading', { name: 'What We Owe the Dead' })).toBeInTheDocument();
    expect(screen.getByText('4 formats purchased')).toBeInTheDocument();
    expect(within(rowFor('E-Book')).getByRole('button', { name: /Download/ })).toHaveTextContent('Download Used');
    expect(within(rowFor('E-Book')).getByRole('button', { name: /Download/ })).toBeDisabled();
    // Send to Kindle sits beside the e-book only, and stays available after the download is spent.
    expect(within(rowFor('E-Book')).getByRole('button', { name: 'Send What We Owe the Dead to Kindle' })).toBeEnabled();
    expect(within(rowFor('Audiobook')).queryByRole('button', { name: /Kindle/ })).not.toBeInTheDocument();
    expect(within(rowFor('Audiobook')).getByRole('button', { name: /Download/ })).toHaveTextContent('Download');
    // The private podcast feed sits beside the audiobook only (decision 0086).
    expect(within(rowFor('Audiobook')).getByRole('button', { name: 'Listen to What We Owe the Dead in a podcast app' })).toHaveTextContent('Podcast app');
    expect(within(rowFor('E-Book')).queryByRole('button', { name: /podcast app/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('format-icon-ebook')).toBeInTheDocument();
    expect(screen.getByTestId('format-icon-audiobook')).toBeInTheDocument();
    expect(screen.getByTestId('format-icon-pdf')).toBeInTheDocument();
    expect(screen.getByTestId('format-icon-generic')).toBeInTheDocument();
    expect(rowFor('mobi')).toBeInTheDocument();
  });

  it('a single format reads "1 format purchased"; a downloadCount of 1 alone means used', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'audiobook', downloadCount: 1 })]),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    expect(await screen.findByText('1 format purchased')).toBeInTheDocument();
    expect(within(rowFor('Audiobook')).getByRole('button', { name: /Download Used/ })).toHaveTextContent('Download Used');
  });

  it('downloads: "Downloading...", the browser download with fileName, the toast, then a refetch', async () => {
    let used = false;
    let releaseLink: ((r: Response) => void) | null = null;
    const headers: Record<string, string>[] = [];
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'ebook', downloadCount: used ? 1 : 0, downloadUsed: used })]),
      '/api/library/orders': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'csrf-1' }),
      '/api/books/1/assets': () => json({ success: true, asset: { id: 9 }, message: 'ok' }),
      '/api/digital-assets/9/download': (_u, init) => {
        headers.push(Object.fromEntries(new Headers(init.headers).entries()));
        return new Promise((r) => (releaseLink = r));
      },
    });
    const clicks: Array<{ href: string; download: string }> = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.getAttribute('href')!, download: this.download });
    });
    renderTab();
    await confirmDownload('Download E-Book');
    expect(await screen.findByText('Downloading...')).toBeInTheDocument();
    expect(screen.getByText('Downloading...').closest('button')).toBeDisabled();
    used = true;
    await waitFor(() => expect(releaseLink).not.toBeNull());
    act(() => releaseLink!(json({ success: true, downloadUrl: '/files/download/abc.def', fileName: 'book.epub', message: 'ok' })));
    expect(await screen.findByText('Download Started')).toBeInTheDocument();
    expect(screen.getByText('Your E-Book download has started.')).toBeInTheDocument();
    expect(clicks).toEqual([{ href: '/files/download/abc.def', download: 'book.epub' }]);
    expect(headers[0]['x-csrf-token']).toBe('csrf-1');
    await waitFor(() => expect(within(rowFor('E-Book')).getByRole('button', { name: /Download/ })).toHaveTextContent('Download Used'));
    spy.mockRestore();
  });

  it('falls back to "{book title}.{format}" when the answer has no fileName', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'pdf' })]),
      '/api/library/orders': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'c' }),
      '/api/books/1/assets': () => json({ success: true, asset: { id: 4 }, message: 'ok' }),
      '/api/digital-assets/4/download': () => json({ success: true, downloadUrl: '/files/download/x.y', fileName: '', message: 'ok' }),
    });
    const names: string[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderTab();
    await confirmDownload('Download PDF');
    await waitFor(() => expect(names).toEqual(['What We Owe the Dead.pdf']));
    spy.mockRestore();
  });

  it('a spent allowance shows the "Download Used" toast', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'ebook' })]),
      '/api/library/orders': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'c' }),
      '/api/books/1/assets': () => json({ success: true, asset: { id: 9 }, message: 'ok' }),
      '/api/digital-assets/9/download': () =>
        json({ message: 'Download limit reached: you have already used your download for this format.' }, 403),
    });
    renderTab();
    await confirmDownload('Download E-Book');
    expect(await screen.findByText('You have already used your download. Please contact support for assistance.')).toBeInTheDocument();
    expect(screen.getAllByText('Download Used').length).toBeGreaterThan(0);
  });

  it('other failures show "Download Failed" with the message', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'audiobook' })]),
      '/api/library/orders': () => json([]),
      '/api/books/1/assets': () => new Response('', { status: 404 }),
    });
    renderTab();
    await confirmDownload('Download Audiobook');
    expect(await screen.findByText('Download Failed')).toBeInTheDocument();
    // Plain words, never a status code or a developer's term.
    expect(screen.getByText(FILE_NOT_READY_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText(/asset|404/i)).not.toBeInTheDocument();
  });

  it('before spending the download it says: once, on this device, and reading in the browser never uses it; "Not now" spends nothing', async () => {
    const fetch = mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'ebook' })]),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Download E-Book' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download the E-Book once' });
    expect(within(dialog).getByText(/one download of this file, and it will be saved on this device only/)).toBeInTheDocument();
    expect(within(dialog).getByText('Reading or listening in the browser never uses your download.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/digital-assets/'))).toBe(false);
  });

  it('an interrupted download offers "Resume download" on the same row, which continues the same link by Range', async () => {
    const ranges: string[] = [];
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'ebook', downloadCount: 1, downloadUsed: true, resumeUntil: '2026-11-01T10:10:00.000Z' })]),
      '/api/library/orders': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'c' }),
      '/api/library/downloads/1/resume': () => json({ success: true, downloadUrl: '/files/download/abc.def', fileName: 'book.epub', message: 'ok' }),
      '/files/download/abc.def': (_u, init) => {
        ranges.push(new Headers(init.headers).get('range')!);
        return new Response('EPUB', { status: 206, headers: { 'Content-Range': 'bytes 0-3/4', ETag: '"v1"' } });
      },
    });
    const names: string[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:saved');
    renderTab();
    expect(await screen.findByText(/Download interrupted\? Resume it here until \d{2}:\d{2}\./)).toBeInTheDocument();
    // Still the used state of docs/PRODUCT.md, Downloads, with the resume offered beneath it.
    expect(within(rowFor('E-Book')).getByRole('button', { name: 'E-Book: Download Used' })).toBeDisabled();
    expect(within(rowFor('E-Book')).queryByRole('button', { name: 'Need another download?' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resume the E-Book download' }));
    expect(await screen.findByText('Download complete')).toBeInTheDocument();
    expect(ranges).toEqual(['bytes=0-']);
    expect(names).toEqual(['book.epub']);
    spy.mockRestore();
    created.mockRestore();
  });

  it('a used download offers "Need another download?"; asking sends the request and the row then says so', async () => {
    let asked = false;
    const bodies: unknown[] = [];
    mockFetch({
      '/api/library/books': () => json([item({ id: 5, format: 'ebook', downloadCount: 1, downloadUsed: true, downloadRequest: asked ? 'pending' : null })]),
      '/api/library/orders': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'c' }),
      '/api/library/download-requests': (_u, init) => {
        bodies.push(JSON.parse(String(init.body)));
        asked = true;
        return json({ success: true, message: 'Your request has been sent to the author. We will email you as soon as your download is ready again.', request: { id: 1, status: 'pending', requestedAt: 'x', grantedAt: null } }, 201);
      },
    });
    renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Need another download?' }));
    expect(await screen.findByText('Request sent')).toBeInTheDocument();
    expect(screen.getByText('Your request has been sent to the author. We will email you as soon as your download is ready again.')).toBeInTheDocument();
    expect(bodies).toEqual([{ purchaseId: 5 }]);
    expect(await screen.findByText('Another download requested. We will email you.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Need another download?' })).not.toBeInTheDocument();
  });

  it('lists printed orders with their shipping status', async () => {
    mockFetch({
      '/api/library/books': () => json([]),
      '/api/library/orders': () =>
        json([
          { id: 3, orderReference: 'WWD-ABC', format: 'hardcover', price: 2499, displayPrice: '£24.99', status: 'completed', purchaseDate: '2026-11-01T10:00:00Z', shippedAt: null, book },
          { id: 4, orderReference: 'WWD-DEF', format: 'paperback', price: 1699, displayPrice: '£16.99', status: 'shipped', purchaseDate: '2026-11-02T10:00:00Z', shippedAt: '2026-11-03T10:00:00Z', book },
        ]),
    });
    renderTab();
    expect(await screen.findByRole('heading', { name: 'Your Orders' })).toBeInTheDocument();
    expect(screen.getByText('Preparing to ship')).toBeInTheDocument();
    expect(screen.getByText('Shipped')).toBeInTheDocument();
    expect(screen.getByText(/WWD-ABC/)).toBeInTheDocument();
  });

  it('a shipped order shows its carrier and tracking number, linked to the carrier\'s page when given', async () => {
    const shipped = { format: 'hardcover', price: 2499, displayPrice: '£24.99', status: 'shipped', purchaseDate: '2026-11-01T10:00:00Z', shippedAt: '2026-11-03T10:00:00Z', book };
    mockFetch({
      '/api/library/books': () => json([]),
      '/api/library/orders': () =>
        json([
          { ...shipped, id: 3, orderReference: 'WWD-TRK', carrier: 'Royal Mail', trackingNumber: 'AB123456789GB', trackingUrl: 'https://track.example/AB123456789GB' },
          { ...shipped, id: 4, orderReference: 'WWD-DPD', carrier: 'DPD', trackingNumber: '15501234567890', trackingUrl: null },
        ]),
    });
    renderTab();
    const link = await screen.findByRole('link', { name: 'AB123456789GB' });
    expect(link).toHaveAttribute('href', 'https://track.example/AB123456789GB');
    expect(link.closest('span')!.textContent).toBe('Royal Mail tracking number AB123456789GB');
    expect(screen.getByText('15501234567890').closest('span')!.parentElement!.textContent).toBe('DPD tracking number 15501234567890');
    expect(screen.queryByRole('link', { name: '15501234567890' })).not.toBeInTheDocument();
  });

  it('"Your Orders" shows a basket line\'s net and tax, and the shipping its order was charged', async () => {
    const paid = { status: 'completed', purchaseDate: '2026-11-20T10:00:00Z', shippedAt: null, book };
    mockFetch({
      '/api/library/books': () => json([]),
      '/api/library/orders': () =>
        json([
          { ...paid, id: 11, orderReference: 'WWD-BSK-1', format: 'hardcover', price: 4998, displayPrice: '£49.98', quantity: 2, displayTax: null, displayNet: null, displayShipping: '£5.00' },
          { ...paid, id: 12, orderReference: 'WWD-BSK-2', format: 'audiobook', price: 1499, displayPrice: '£14.99', tax: 250, displayTax: '£2.50', displayNet: '£12.49', displayShipping: null },
        ]),
    });
    renderTab();
    const list = within((await screen.findByRole('heading', { name: 'Your Orders' })).closest('section')!);
    const print = list.getByText(/WWD-BSK-1/).closest('li')!;
    expect(within(print).getByText('Shipping £5.00')).toBeInTheDocument();
    expect(within(print).queryByText(/^Net /)).not.toBeInTheDocument();
    const audio = list.getByText(/WWD-BSK-2/).closest('li')!;
    expect(within(audio).getByText('Net £12.49 · Tax £2.50')).toBeInTheDocument();
    expect(within(audio).queryByText(/^Shipping /)).not.toBeInTheDocument();
  });

  it('"Your Orders" lists digital orders too, with the discount and any refund, statuses in words', async () => {
    mockFetch({
      '/api/library/books': () => json([]),
      '/api/library/orders': () =>
        json([
          {
            id: 7,
            orderReference: 'WWD-EBK',
            format: 'ebook',
            price: 499,
            displayPrice: '£4.99',
            displayListPrice: '£9.99',
            discountCode: 'LAUNCH',
            status: 'completed',
            purchaseDate: '2026-11-05T10:00:00Z',
            shippedAt: null,
            refundedAt: null,
            book,
          },
          {
            id: 8,
            orderReference: 'WWD-AUD',
            format: 'audiobook',
            price: 1499,
            displayPrice: '£14.99',
            displayListPrice: null,
            discountCode: null,
            status: 'refunded',
            purchaseDate: '2026-11-04T10:00:00Z',
            shippedAt: null,
            refundedAt: '2026-11-06T10:00:00Z',
            book,
          },
        ]),
    });
    renderTab();
    const list = within((await screen.findByRole('heading', { name: 'Your Orders' })).closest('section')!);
    const ebook = list.getByText(/WWD-EBK/).closest('li')!;
    expect(ebook).toHaveTextContent('E-Book');
    expect(ebook).toHaveTextContent('list price £9.99 £4.99 paid with code LAUNCH');
    expect(within(ebook).getByText('Paid')).toBeInTheDocument();
    const audio = list.getByText(/WWD-AUD/).closest('li')!;
    expect(within(audio).getByText('Refunded on 6 November 2026')).toBeInTheDocument();
    expect(list.queryByText(/completed|refunded\b|ebook|audiobook/)).not.toBeInTheDocument();
  });

  it('marks an ebook that came with a print copy "Included with your hardcover", downloadable as usual', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 5, format: 'ebook', includedWith: 'hardcover' }), item({ id: 6, format: 'audiobook' })]),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    expect(await screen.findByText('Included with your hardcover')).toBeInTheDocument();
    expect(within(rowFor('E-Book')).getByText('Included with your hardcover')).toBeInTheDocument();
    expect(within(rowFor('E-Book')).getByRole('button', { name: 'Download E-Book' })).toBeEnabled();
    expect(within(rowFor('Audiobook')).queryByText(/Included with/)).not.toBeInTheDocument();
  });

  it('before the release every order, the hardcover too, says "Pre-order, available on {date}"; after it a row without its file says "Not ready yet"', async () => {
    const releaseAt = '2027-03-12T09:00:00.000Z';
    mockFetch({
      '/api/library/books': () =>
        json([item({ id: 9, format: 'ebook', availableAt: releaseAt, fileReady: true }), item({ id: 10, format: 'audiobook', fileReady: false })]),
      '/api/library/orders': () =>
        json([
          { id: 11, orderReference: 'WWD-PRE', format: 'hardcover', price: 2599, displayPrice: '£25.99', status: 'completed', purchaseDate: '2026-11-05T10:00:00Z', shippedAt: null, book, availableAt: releaseAt },
          { id: 9, orderReference: 'WWD-PEB', format: 'ebook', price: 1299, displayPrice: '£12.99', status: 'completed', purchaseDate: '2026-11-05T10:00:00Z', shippedAt: null, book, availableAt: releaseAt },
        ]),
    });
    renderTab();
    const list = within((await screen.findByRole('heading', { name: 'Your Orders' })).closest('section')!);
    expect(within(list.getByText(/WWD-PRE/).closest('li')!).getByText('Pre-order, available on 12 March 2027')).toBeInTheDocument();
    expect(within(list.getByText(/WWD-PEB/).closest('li')!).getByText('Pre-order, available on 12 March 2027')).toBeInTheDocument();
    expect(list.queryByText('Preparing to ship')).not.toBeInTheDocument();
    expect(within(rowFor('E-Book')).getByText('Pre-order, available on 12 March 2027')).toBeInTheDocument();
    expect(within(rowFor('E-Book')).queryByRole('button')).not.toBeInTheDocument();
    const audio = rowFor('Audiobook');
    expect(within(audio).getByText('Not ready yet')).toBeInTheDocument();
    expect(audio).toHaveTextContent('We will email you the moment this file is in your library.');
    expect(within(audio).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
  });

  it('marks a format "Updated" when the author has sent a new edition of it, and only that one', async () => {
    mockFetch({
      '/api/library/books': () => json([item({ id: 1, format: 'ebook', updated: true, downloadCount: 1, maxDownloads: 2 }), item({ id: 2, format: 'audiobook', updated: false })]),
      '/api/library/orders': () => json([]),
    });
    renderTab();
    await screen.findByText('What We Owe the Dead');
    expect(within(rowFor('E-Book')).getByText('Updated')).toBeInTheDocument();
    expect(within(rowFor('Audiobook')).queryByText('Updated')).toBeNull();
    expect(screen.getAllByText('Updated')).toHaveLength(1);
  });

  it('offers "Post your review" on a review copy, opens the campaign\'s form, and says the review is posted afterwards', async () => {
    const copy = { id: 4, slug: 'early-readers', bookId: 1, bookTitle: book.title, format: 'ebook', formatLabel: 'E-Book', status: 'approved', reviewLinks: [] as Array<{ url: string; postedAt: string }> };
    const posted = { url: 'https://blog.example.com/owe-the-dead', postedAt: '2026-11-27T00:00:00.000Z' };
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/check-auth': () => json({ isAuthenticated: true, user: { id: 7, role: 'user' } }),
      '/api/library/books': () => json([item({ id: 1, format: 'ebook' }), item({ id: 2, format: 'audiobook' })]),
      '/api/library/orders': () => json([]),
      '/api/review-copies/mine': () => json([copy]),
      '/api/review-copies/early-readers': () =>
        json({ slug: 'early-readers', book: { ...book, tagline: 'A tagline.' }, formatLabel: 'E-Book', question: 'Q?', opensAt: '2026-11-01T00:00:00.000Z', closesAt: '2026-12-31T00:00:00.000Z', state: 'open' }),
      '/api/review-copies/applications/4/links': () => {
        copy.reviewLinks = [posted];
        return json([copy], 201);
      },
    });
    renderWithRouter(
      [
        {
          element: <><Outlet /><Toaster /></>,
          children: [
            { path: '/profile', element: <ProfileLibrary userId={7} /> },
            { path: '/review-copies/:slug', element: <ReviewCopiesPage /> },
          ],
        },
      ],
      '/profile',
    );
    await screen.findByText('E-Book', { selector: 'span.font-medium' });
    const link = await within(rowFor('E-Book')).findByRole('link', { name: 'Post your review' });
    expect(link).toHaveAttribute('href', '/review-copies/early-readers');
    expect(within(rowFor('Audiobook')).queryByRole('link', { name: 'Post your review' })).not.toBeInTheDocument();
    fireEvent.click(link);
    const form = await screen.findByRole('form', { name: 'Post your review' });
    fireEvent.change(within(form).getByLabelText('Link to your review'), { target: { value: posted.url } });
    fireEvent.click(within(form).getByRole('button', { name: 'Post link' }));
    expect(await screen.findByText('Thank you! Your review link is saved. We will not send you any more reminders.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'My Library' }));
    await screen.findByText('E-Book', { selector: 'span.font-medium' });
    expect(await within(rowFor('E-Book')).findByText('Review posted')).toBeInTheDocument();
    expect(within(rowFor('E-Book')).queryByRole('link', { name: 'Post your review' })).not.toBeInTheDocument();
  });
});
