import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AdminBookFormPage from '@client/pages/admin-book-form';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';

const book = {
  id: 7,
  title: 'What We Owe the Dead',
  tagline: 'Blood makes you brothers.',
  synopsis: 'Nineteen years ago, on the night of the worst storm...',
  coverImage: '/images/covers/front.svg',
  yearPublished: 2026,
  publisher: 'Harrow & Vane',
  featured: true,
};

function renderForm(mode: 'create' | 'edit', path: string) {
  return renderWithRouter(
    [
      { path: '/admin/books/create', element: <><AdminBookFormPage mode="create" /><Toaster /></> },
      { path: '/admin/books/edit/:id', element: <><AdminBookFormPage mode="edit" /><Toaster /></> },
      { path: '/admin', element: <><p>Admin hub</p><Toaster /></> },
    ],
    path,
  );
}

describe('admin book form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads "Add New Book", defaults the year to this year and shows every book form message', async () => {
    const fetch = mockFetch({});
    renderForm('create', '/admin/books/create');
    expect(screen.getByRole('heading', { name: 'Add New Book' })).toBeInTheDocument();
    expect(screen.getByLabelText('Year published')).toHaveValue(new Date().getFullYear());
    expect(screen.getByLabelText(/Featured/)).not.toBeChecked();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Synopsis'), 'short');
    await user.clear(screen.getByLabelText('Year published'));
    await user.type(screen.getByLabelText('Year published'), '999');
    await user.click(screen.getByRole('button', { name: 'Create Book' }));
    for (const message of [
      'Title is required',
      'Tagline is required',
      'Synopsis must be at least 10 characters',
      'Cover image URL is required',
      'Year published must be a valid year',
      'Publisher is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates a book and returns to /admin', async () => {
    let sent: unknown;
    let uploaded: File | null = null;
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/books': (_url, init) => {
        sent = JSON.parse(String(init.body));
        return json({ id: 9, ...(sent as object) }, 201);
      },
      '/api/admin/images': (_url, init) => {
        uploaded = (init.body as FormData).get('file') as File;
        return json({ url: '/media/images/0123456789abcdef0123456789abcdef.png', contentType: 'image/png', bytes: 8 }, 201);
      },
    });
    const { router } = renderForm('create', '/admin/books/create');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'New Book');
    await user.type(screen.getByLabelText('Tagline'), 'A line');
    await user.type(screen.getByLabelText('Synopsis'), 'A long enough synopsis.');
    // The cover is uploaded, not typed; the form keeps the URL the server answers and shows a preview.
    expect(screen.queryByRole('textbox', { name: /cover/i })).not.toBeInTheDocument();
    await user.upload(screen.getByLabelText('Upload image'), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'cover.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Cover image: preview' })).toHaveAttribute('src', '/media/images/0123456789abcdef0123456789abcdef.png');
    expect(uploaded!.name).toBe('cover.png');
    await user.type(screen.getByLabelText('Publisher'), 'Harrow & Vane');
    await user.type(screen.getByLabelText('Series (optional)'), 'The Quay Lane Books');
    await user.type(screen.getByLabelText('Number in series'), '2');
    await user.click(screen.getByLabelText(/Featured/));
    await user.click(screen.getByRole('button', { name: 'Create Book' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(sent).toEqual({
      title: 'New Book',
      tagline: 'A line',
      synopsis: 'A long enough synopsis.',
      coverImage: '/media/images/0123456789abcdef0123456789abcdef.png',
      yearPublished: new Date().getFullYear(),
      publisher: 'Harrow & Vane',
      series: 'The Quay Lane Books',
      seriesNumber: 2,
      featured: true,
      includeEbookWithPrint: true,
    });
  });

  it('"Include the ebook with print" shows the saved setting and sends the change', async () => {
    let sent: Record<string, unknown> | undefined;
    mockFetch({
      '/api/books/7': () => json({ ...book, includeEbookWithPrint: true }),
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/books/7': (_url, init) => {
        sent = JSON.parse(String(init.body));
        return json({ ...book, ...sent });
      },
    });
    const { router } = renderForm('edit', '/admin/books/edit/7');
    const box = await screen.findByLabelText(/Include the ebook with print/);
    await waitFor(() => expect(box).toBeChecked());
    const user = userEvent.setup();
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(sent).toMatchObject({ title: book.title, includeEbookWithPrint: false });
  });

  it('shows "Failed to create book: {message}" with the server message', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/books': () => json({ message: 'Another book was featured at the same time. Please try again.', code: 'CONFLICT' }, 409),
      '/api/admin/images': () => json({ url: '/media/images/0123456789abcdef0123456789abcdef.png', contentType: 'image/png', bytes: 8 }, 201),
    });
    renderForm('create', '/admin/books/create');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'T');
    await user.type(screen.getByLabelText('Tagline'), 'T');
    await user.type(screen.getByLabelText('Synopsis'), 'Long enough synopsis');
    await user.upload(screen.getByLabelText('Upload image'), new File([new Uint8Array([0xff, 0xd8, 0xff])], 'c.jpg', { type: 'image/jpeg' }));
    await screen.findByRole('img', { name: 'Cover image: preview' });
    await user.type(screen.getByLabelText('Publisher'), 'P');
    await user.click(screen.getByRole('button', { name: 'Create Book' }));
    expect(await screen.findByText('Failed to create book: Another book was featured at the same time. Please try again.')).toBeInTheDocument();
  });

  it('reads "Edit Book", loads the book, and reports "Failed to update book: {message}"', async () => {
    mockFetch({
      '/api/books/7': () => json(book),
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/books/7': () => json({ message: 'Synopsis must be at least 10 characters', code: 'VALIDATION_ERROR', fields: { synopsis: 'Synopsis must be at least 10 characters' } }, 400),
    });
    renderForm('edit', '/admin/books/edit/7');
    expect(screen.getByRole('heading', { name: 'Edit Book' })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('What We Owe the Dead')).toBeInTheDocument();
    expect(screen.getByLabelText('Year published')).toHaveValue(2026);
    expect(screen.getByLabelText(/Featured/)).toBeChecked();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update book: Synopsis must be at least 10 characters')).toBeInTheDocument();
  });

  it('reports "Error loading book details: {message}"', async () => {
    mockFetch({ '/api/books/8': () => json({ message: 'Book not found', code: 'NOT_FOUND' }, 404) });
    renderForm('edit', '/admin/books/edit/8');
    expect(await screen.findByText('Error loading book details: Book not found')).toBeInTheDocument();
  });

  it('a book that does not exist shows "Book not found", not an empty form', async () => {
    mockFetch({ '/api/books/99999': () => json({ message: 'Book not found', code: 'NOT_FOUND' }, 404) });
    renderForm('edit', '/admin/books/edit/99999');
    expect(await screen.findByRole('heading', { name: 'Book not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no book with the id 99999. It may have been deleted.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Title')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Admin' })).toHaveAttribute('href', '/admin');
  });

  it('an id that is not a number shows "Book not found" too', async () => {
    mockFetch({});
    renderForm('edit', '/admin/books/edit/abc');
    expect(await screen.findByRole('heading', { name: 'Book not found' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Title')).not.toBeInTheDocument();
  });

  it('a failed load (not a 404) offers Try Again instead of an empty form', async () => {
    let calls = 0;
    mockFetch({
      '/api/books/8': () => {
        calls += 1;
        return calls === 1 ? json({ message: 'Internal Server Error' }, 500) : json({ ...book, id: 8 });
      },
    });
    renderForm('edit', '/admin/books/edit/8');
    const retry = await screen.findByRole('button', { name: 'Try Again' });
    expect(screen.queryByLabelText('Title')).not.toBeInTheDocument();
    await userEvent.setup().click(retry);
    expect(await screen.findByLabelText('Title')).toHaveValue(book.title);
  });

  it('an edited book shows its current cover; a refused upload says why and keeps the old one', async () => {
    mockFetch({
      '/api/books/7': () => json(book),
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/images': () => json({ message: 'The image must be a PNG, JPEG, WebP or AVIF file.', code: 'UNSUPPORTED_FILE_TYPE' }, 415),
    });
    renderForm('edit', '/admin/books/edit/7');
    expect(await screen.findByRole('img', { name: 'Cover image: preview' })).toHaveAttribute('src', '/images/covers/front.svg');
    await userEvent.setup({ applyAccept: false }).upload(screen.getByLabelText('Replace image'), new File(['GIF89a'], 'c.gif', { type: 'image/gif' }));
    expect(await screen.findByText('The image must be a PNG, JPEG, WebP or AVIF file.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Cover image: preview' })).toHaveAttribute('src', '/images/covers/front.svg');
  });

  it('Cancel returns to /admin', async () => {
    mockFetch({});
    const { router } = renderForm('create', '/admin/books/create');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/admin');
  });
});
