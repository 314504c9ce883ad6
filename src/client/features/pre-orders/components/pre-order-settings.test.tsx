import { screen, within } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { PreOrderSettings } from './pre-order-settings';

describe('the release form', () => {
  it('warns about every pre-ordered format without a file, with its orders', async () => {
    mockFetch({
      '/api/admin/books/2/pre-order': () =>
        json({
          releaseAt: '2026-12-03T09:00:00.000Z',
          prices: { hardcover: 2599, paperback: null, ebook: 1299, audiobook: 1599 },
          missingFiles: [
            { format: 'ebook', label: 'E-Book', orders: 3 },
            { format: 'audiobook', label: 'Audiobook', orders: 0 },
          ],
        }),
    });
    renderWithRouter([{ path: '/admin/books/edit/2', element: <PreOrderSettings bookId={2} featured={false} /> }], '/admin/books/edit/2');
    const note = await screen.findByRole('note', { name: 'Files missing for pre-ordered formats' });
    expect(within(note).getByText('E-Book: no file uploaded yet (3 orders waiting).')).toBeInTheDocument();
    expect(within(note).getByText('Audiobook: no file uploaded yet.')).toBeInTheDocument();
    expect(within(note).getByText(/its buyers are told it is not ready yet, and emailed as soon as you upload it/)).toBeInTheDocument();
  });

  it('says nothing when every pre-ordered format has its file', async () => {
    mockFetch({
      '/api/admin/books/2/pre-order': () =>
        json({ releaseAt: null, prices: { hardcover: null, paperback: null, ebook: 1299, audiobook: null }, missingFiles: [] }),
    });
    renderWithRouter([{ path: '/admin/books/edit/2', element: <PreOrderSettings bookId={2} featured={false} /> }], '/admin/books/edit/2');
    expect(await screen.findByRole('button', { name: 'Save release and prices' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
