import { screen } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import ReadingRoomPage from './reading-room';

const routes = [
  { path: '/read/:bookId/:format', element: <ReadingRoomPage /> },
  { path: '/listen/:bookId', element: <ReadingRoomPage /> },
];

describe('the reading room of a book that does not exist', () => {
  afterEach(() => vi.unstubAllGlobals());

  beforeEach(() => {
    const missing = () => json({ message: 'Book not found', code: 'NOT_FOUND' }, 404);
    mockFetch({
      '/api/books/999': missing,
      '/api/library/999/ebook/content': () => json({ message: 'You have not purchased this format', code: 'FORBIDDEN' }, 403),
      '/api/library/999/ebook/position': () => json({ position: null }),
      '/api/library/999/audiobook/chapters': missing,
      '/api/library/999/audiobook/position': () => json({ position: null }),
    });
  });

  it('/read/{unknown book}/ebook shows the not-found page', async () => {
    renderWithRouter(routes, '/read/999/ebook');
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByText('Not in your library')).not.toBeInTheDocument();
  });

  it('/listen/{unknown book} shows the not-found page', async () => {
    renderWithRouter(routes, '/listen/999');
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeInTheDocument();
  });
});
