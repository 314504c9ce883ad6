import { act, fireEvent, screen } from '@testing-library/react';
import type { GiftView } from '@shared/schemas/gifts';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import GiftClaimPage from './gift-claim';

const GIFT: GiftView = {
  from: 'Ada Buyer',
  recipientName: 'Fran',
  message: 'For the long train home.',
  format: 'ebook',
  formatLabel: 'E-Book',
  book: { id: 1, title: 'What We Owe the Dead', coverImage: '/c.svg' },
  state: 'open',
};
const SIGNED_IN = { isAuthenticated: true, user: { id: 7, role: 'user' } };
const SIGNED_OUT = { isAuthenticated: false, user: null };

function renderClaim() {
  return renderWithRouter(
    [
      {
        element: <><Outlet /><Toaster /></>,
        children: [
          { path: '/gift/:token', element: <GiftClaimPage /> },
          { path: '/profile', element: <p>profile page</p> },
          { path: '/login', element: <p>login page</p> },
        ],
      },
    ],
    '/gift/tok_abcdefghijkl',
  );
}

describe('/gift/:token', () => {
  beforeEach(() => {
    act(() => resetToastStore());
    window.sessionStorage.clear();
  });

  it('only shows the gift until the reader presses "Claim your gift", then goes to the library', async () => {
    const fetch = mockFetch({
      '/api/gifts/tok_abcdefghijkl': () => json(GIFT),
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/gifts/tok_abcdefghijkl/claim': () => json({ success: true, message: 'Your gift is in your library.', redirectTo: '/profile#library' }),
    });
    const { router } = renderClaim();
    expect(await screen.findByRole('heading', { name: 'What We Owe the Dead' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('From Ada Buyer')).toBeInTheDocument();
    expect(screen.getByText('For the long train home.')).toBeInTheDocument();
    expect(screen.getByText('E-Book · for Fran')).toBeInTheDocument();
    const claim = await screen.findByRole('button', { name: 'Claim your gift' });
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/claim'))).toBe(false);
    fireEvent.click(claim);
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#library');
    expect(screen.getByText('Gift claimed')).toBeInTheDocument();
  });

  it('signed out: offers sign in and register, and remembers the way back', async () => {
    mockFetch({ '/api/gifts/tok_abcdefghijkl': () => json(GIFT), '/api/users/check-auth': () => json(SIGNED_OUT) });
    const { router } = renderClaim();
    expect(await screen.findByRole('button', { name: 'Create an account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Claim your gift' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?returnTo=gift');
    expect(window.sessionStorage.getItem('gift.returnPath')).toBe('/gift/tok_abcdefghijkl');
  });

  it('says so when the gift was already claimed or refunded, with no claim button', async () => {
    mockFetch({ '/api/gifts/tok_abcdefghijkl': () => json({ ...GIFT, state: 'claimed' }), '/api/users/check-auth': () => json(SIGNED_IN) });
    renderClaim();
    expect(await screen.findByText('This gift has already been claimed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Claim your gift' })).toBeNull();
  });

  it('a claim that loses the race shows the server message', async () => {
    mockFetch({
      '/api/gifts/tok_abcdefghijkl': () => json(GIFT),
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/gifts/tok_abcdefghijkl/claim': () => json({ message: 'This gift has already been claimed.' }, 409),
    });
    renderClaim();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim your gift' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This gift has already been claimed.');
  });

  it('an unknown or replaced link says it does not work', async () => {
    mockFetch({
      '/api/gifts/tok_abcdefghijkl': () => json({ message: 'This gift link is not valid. Please ask the sender to resend it.' }, 404),
      '/api/users/check-auth': () => json(SIGNED_OUT),
    });
    renderClaim();
    expect(await screen.findByText('This gift link does not work')).toBeInTheDocument();
    expect(screen.getByText('This gift link is not valid. Please ask the sender to resend it.')).toBeInTheDocument();
  });
});
