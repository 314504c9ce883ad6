import { screen, within } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminFilesPage from './admin-files';

const asset = (id: number, format: string, sample: boolean) => ({
  id,
  bookId: 1,
  bookTitle: 'What We Owe the Dead',
  format,
  fileName: `file-${format}`,
  contentType: 'application/octet-stream',
  fileSizeKb: 120,
  version: '1.0',
  updatedAt: '2026-11-20T10:00:00.000Z',
  sample,
});

describe('/admin/files', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says plainly which formats are still the seeded sample file', async () => {
    mockFetch({
      '/api/books': () => json([{ id: 1, title: 'What We Owe the Dead', tagline: 't', synopsis: 's', coverImage: '/c.svg', yearPublished: 2026, publisher: 'H', featured: true }]),
      '/api/admin/files': () => json([asset(1, 'ebook', false), asset(2, 'pdf', true), asset(3, 'audiobook', true)]),
    });
    renderWithRouter([{ path: '/admin/files', element: <AdminFilesPage /> }], '/admin/files');
    await screen.findByText(/file-ebook/);
    const card = (label: string) => screen.getByText(label).parentElement!;
    expect(within(card('E-Book (EPUB)')).queryByText('Sample file.')).not.toBeInTheDocument();
    expect(within(card('PDF')).getByText('Sample file.')).toBeInTheDocument();
    expect(within(card('Audiobook (MP3 or M4A)')).getByText('Sample file.')).toBeInTheDocument();
    expect(within(card('PDF')).getByText(/This is still the short sample the site came with, not your book/)).toBeInTheDocument();
  });
});
