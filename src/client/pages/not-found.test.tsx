import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithRouter } from '@client/test/render';
import NotFoundPage from './not-found';

const routes = [
  { path: '/', element: <p>Home page</p> },
  { path: '/previous', element: <p>Previous page</p> },
  { path: '*', element: <NotFoundPage /> },
];

describe('NotFoundPage', () => {
  it('shows its texts and sets the title', () => {
    renderWithRouter(routes, '/no-such-page');
    expect(screen.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "Sorry, we couldn't find the page you're looking for. It might have been moved, deleted, or never existed.",
      ),
    ).toBeInTheDocument();
    expect(document.title).toContain('Page Not Found');
  });

  it('Return Home goes to /', async () => {
    renderWithRouter(routes, '/no-such-page');
    await userEvent.click(screen.getByRole('link', { name: 'Return Home' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });

  it('Go Back goes back in history', async () => {
    const { router } = renderWithRouter(routes, '/previous');
    await act(() => router.navigate('/missing'));
    expect(await screen.findByText('404 Page Not Found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(await screen.findByText('Previous page')).toBeInTheDocument();
  });
});
