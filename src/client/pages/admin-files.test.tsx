import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
    // The author opens their own book in the reader and the player.
    expect(screen.getByRole('link', { name: 'Read the E-Book (EPUB) of What We Owe the Dead' })).toHaveAttribute('href', '/read/1/ebook');
    expect(screen.getByRole('link', { name: 'Read the PDF of What We Owe the Dead' })).toHaveAttribute('href', '/read/1/pdf');
    expect(screen.getByRole('link', { name: 'Listen to the Audiobook (MP3 or M4A) of What We Owe the Dead' })).toHaveAttribute('href', '/listen/1');
  });

  it('an upload problem stays beside its file until dismissed, and a good upload clears it', async () => {
    const problem = 'This EPUB would be refused by Kindle and e-readers. Problem: 1. The file has no table of contents.';
    let refuse = true;
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/books': () => json([{ id: 1, title: 'What We Owe the Dead', tagline: 't', synopsis: 's', coverImage: '/c.svg', yearPublished: 2026, publisher: 'H', featured: true }]),
      '/api/admin/files': () => json([asset(1, 'ebook', false)]),
      '/api/admin/books/1/files/ebook': () =>
        refuse ? json({ message: problem, code: 'EPUB_INVALID', fields: { file: problem } }, 400) : json(asset(1, 'ebook', false)),
    });
    renderWithRouter([{ path: '/admin/files', element: <AdminFilesPage /> }], '/admin/files');
    const input = await screen.findByLabelText('Replace E-Book (EPUB) for What We Owe the Dead');
    fireEvent.change(input, { target: { files: [new File(['PK'], 'draft-v7.epub', { type: 'application/epub+zip' })] } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('draft-v7.epub was not uploaded');
    expect(alert).toHaveTextContent(problem);
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss the problem with draft-v7.epub' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    fireEvent.change(input, { target: { files: [new File(['PK'], 'draft-v7.epub', { type: 'application/epub+zip' })] } });
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    refuse = false;
    fireEvent.change(input, { target: { files: [new File(['PK'], 'draft-v8.epub', { type: 'application/epub+zip' })] } });
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  describe('Tell owners about this edition', () => {
    const books = () => json([{ id: 1, title: 'What We Owe the Dead', tagline: 't', synopsis: 's', coverImage: '/c.svg', yearPublished: 2026, publisher: 'H', featured: true }]);
    const sent: FormData[] = [];
    beforeEach(() => {
      sent.length = 0;
      mockFetch({
        '/api/csrf-token': () => json({ csrfToken: 'tok' }),
        '/api/books': books,
        '/api/admin/files': () => json([asset(1, 'ebook', false), asset(3, 'audiobook', false)]),
        '/api/admin/books/1/files/ebook': (_url, init) => {
          sent.push(init.body as FormData);
          return json({ ...asset(1, 'ebook', false), version: '2.0', ...((init.body as FormData).get('notifyOwners') ? { ownersNotified: 3 } : {}) });
        },
      });
    });

    it('is offered beside a replaceable e-book, not beside the audiobook or a format with no file yet; the note shows once ticked', async () => {
      renderWithRouter([{ path: '/admin/files', element: <AdminFilesPage /> }], '/admin/files');
      await screen.findByText(/file-ebook/);
      const card = (label: string) => screen.getByText(label).parentElement!;
      expect(within(card('E-Book (EPUB)')).getByLabelText('Tell owners about this edition')).not.toBeChecked();
      expect(within(card('Audiobook (MP3 or M4A)')).queryByLabelText('Tell owners about this edition')).toBeNull();
      expect(within(card('PDF')).queryByLabelText('Tell owners about this edition')).toBeNull();
      expect(screen.queryByLabelText("Author's note")).toBeNull();
      fireEvent.click(within(card('E-Book (EPUB)')).getByLabelText('Tell owners about this edition'));
      expect(screen.getByLabelText("Author's note")).toHaveAttribute('maxlength', '2000');
      expect(screen.getByText('Mailed with the new file to every owner of this format, who gets one download of it. Choose the file next.')).toBeInTheDocument();
    });

    it('sends the box and the note before the file, then clears them', async () => {
      renderWithRouter([{ path: '/admin/files', element: <AdminFilesPage /> }], '/admin/files');
      const box = await screen.findByLabelText('Tell owners about this edition');
      fireEvent.click(box);
      fireEvent.change(screen.getByLabelText("Author's note"), { target: { value: 'Chapter 12 has a new ending.' } });
      fireEvent.change(screen.getByLabelText('Replace E-Book (EPUB) for What We Owe the Dead'), {
        target: { files: [new File(['PK'], 'second.epub', { type: 'application/epub+zip' })] },
      });
      await waitFor(() => expect(sent).toHaveLength(1));
      expect([...sent[0].keys()]).toEqual(['notifyOwners', 'note', 'file']);
      expect(sent[0].get('notifyOwners')).toBe('true');
      expect(sent[0].get('note')).toBe('Chapter 12 has a new ending.');
      await waitFor(() => expect(screen.getByLabelText('Tell owners about this edition')).not.toBeChecked());
      expect(screen.queryByLabelText("Author's note")).toBeNull();
    });

    it('unticked, the upload carries the file alone', async () => {
      renderWithRouter([{ path: '/admin/files', element: <AdminFilesPage /> }], '/admin/files');
      fireEvent.change(await screen.findByLabelText('Replace E-Book (EPUB) for What We Owe the Dead'), {
        target: { files: [new File(['PK'], 'second.epub', { type: 'application/epub+zip' })] },
      });
      await waitFor(() => expect(sent).toHaveLength(1));
      expect([...sent[0].keys()]).toEqual(['file']);
    });
  });
});
