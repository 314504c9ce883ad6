import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@shared/constants';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { resetToastStore, useToast } from '@client/components/ui/toast-store';
import { act } from 'react';
import { Header } from './header';

type Role = 'user' | 'admin';

/** Global fetch double: the server's view of the session (null = signed out). */
function serverSession(initial: Role | null) {
  const state = { role: initial, tokenAtLogout: 'unset' as string | null };
  const fetchMock = mockFetch({
    '/api/users/check-auth': () =>
      json(state.role ? { isAuthenticated: true, user: { id: 7, role: state.role } } : { isAuthenticated: false, user: null }),
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/logout': () => {
      state.tokenAtLogout = window.localStorage.getItem(STORAGE_KEYS.authToken);
      state.role = null;
      return json({ success: true, message: 'Logged out' });
    },
  });
  return { state, fetchMock };
}

function ToastProbe() {
  const { toasts } = useToast();
  return <output data-testid="toasts">{toasts.map((t) => `${String(t.title)} / ${String(t.description)}`).join('|')}</output>;
}

function renderHeader(path: string) {
  const page = (
    <>
      <Header />
      <ToastProbe />
    </>
  );
  return renderWithRouter(
    [
      { path: '/', element: page },
      { path: '*', element: page },
    ],
    path,
  );
}

const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }));

beforeEach(() => {
  clearCsrfToken();
  act(() => resetToastStore());
});
afterEach(() => vi.unstubAllGlobals());

describe('Header', () => {
  it('signed out on /: section anchors, Blog and Sign In', async () => {
    serverSession(null);
    renderHeader('/');
    expect(await mainNav().findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    for (const [label, anchor] of [
      ['Synopsis', 'synopsis'],
      ['Author', 'author'],
      ['Reviews', 'reviews'],
      ['Purchase', 'purchase'],
      ['Coming Soon', 'upcoming'],
      ['Contact', 'contact'],
    ]) {
      expect(mainNav().getByRole('link', { name: label })).toHaveAttribute('href', `/#${anchor}`);
    }
    expect(mainNav().getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    expect(mainNav().queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
    expect(mainNav().queryByRole('link', { name: 'My Profile' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'What We Owe the Dead' })).toHaveAttribute('href', '/');
    // Mobile: the account icon leads to login.
    expect(screen.getAllByRole('link', { name: 'Sign In' }).some((a) => a.getAttribute('href') === '/login')).toBe(true);
  });

  it('signed in as a user elsewhere: Home, My Profile and Logout, but no Admin', async () => {
    serverSession('user');
    renderHeader('/blog');
    expect(await mainNav().findByRole('link', { name: 'My Profile' })).toHaveAttribute('href', '/profile');
    expect(mainNav().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(mainNav().getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(mainNav().queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(mainNav().queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(mainNav().queryByRole('link', { name: 'Synopsis' })).not.toBeInTheDocument();
  });

  it('signed in as admin: Admin link, and "Admin Dashboard" in the mobile menu', async () => {
    serverSession('admin');
    renderHeader('/profile');
    expect(await mainNav().findByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');

    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');
    const mobile = within(screen.getByRole('navigation', { name: 'Mobile' }));
    expect(mobile.getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');

    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('logout removes the token before calling the server, toasts, and leaves /profile for /', async () => {
    window.localStorage.setItem(STORAGE_KEYS.authToken, 'tok');
    const { state, fetchMock } = serverSession('user');
    const { router } = renderHeader('/profile');

    await userEvent.click(await mainNav().findByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(state.tokenAtLogout).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    const logoutCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users/logout');
    expect(logoutCall?.[1]?.method).toBe('POST');
    expect(screen.getByTestId('toasts')).toHaveTextContent(
      'Logged out successfully / You have been logged out of your account.',
    );
    expect(await mainNav().findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('logout still signs out locally when the server fails', async () => {
    window.localStorage.setItem(STORAGE_KEYS.authToken, 'tok');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serverSession('user');
    const fetchMock = vi.mocked(fetch);
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input) === '/api/users/logout' ? Promise.reject(new TypeError('Failed to fetch')) : base(input, init),
    );
    renderHeader('/blog');

    await userEvent.click(await mainNav().findByRole('button', { name: 'Logout' }));
    await waitFor(() =>
      expect(screen.getByTestId('toasts')).toHaveTextContent(
        "Partial logout / You've been logged out from this device, but there was a server error.",
      ),
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
  });

  it('a failed auth check counts as signed out and is only logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ '/api/users/check-auth': () => new Response('down', { status: 500 }) });
    renderHeader('/');
    expect(await mainNav().findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    await waitFor(() => expect(log).toHaveBeenCalled());
  });
});
