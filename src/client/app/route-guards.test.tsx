import { screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { AdminGuard, ProtectedRoute, isDevelopmentHost } from './route-guards';

function renderGuarded(which: 'admin' | 'protected' = 'admin') {
  const Guard = which === 'admin' ? AdminGuard : ProtectedRoute;
  return renderWithRouter(
    [
      { path: '/admin', element: <Guard><p>Secret admin page</p></Guard> },
      { path: '/login', element: <p>Login page</p> },
    ],
    '/admin',
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('route guards in a production build', () => {
  beforeEach(() => vi.stubEnv('DEV', false));

  it('shows a checking spinner, then the page for an admin', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockFetch({
      '/api/users/check-admin': async () => {
        await gate;
        return json({ isAuthenticated: true, isAdmin: true });
      },
    });
    renderGuarded();
    expect(screen.getByRole('status')).toHaveTextContent('Checking access');
    expect(screen.queryByText('Secret admin page')).not.toBeInTheDocument();
    release();
    expect(await screen.findByText('Secret admin page')).toBeInTheDocument();
  });

  it('redirects a signed-in non-admin to /login?returnTo=admin', async () => {
    mockFetch({ '/api/users/check-admin': () => json({ isAuthenticated: true, isAdmin: false }) });
    const { router } = renderGuarded();
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?returnTo=admin');
  });

  it('denies when the check fails, even on localhost', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ '/api/users/check-admin': () => new Response('boom', { status: 500 }) });
    renderGuarded('protected');
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(screen.queryByText('Secret admin page')).not.toBeInTheDocument();
  });

  it('ProtectedRoute applies the same admin rule', async () => {
    mockFetch({ '/api/users/check-admin': () => json({ isAuthenticated: false, isAdmin: false }) });
    renderGuarded('protected');
    expect(await screen.findByText('Login page')).toBeInTheDocument();
  });
});

describe('route guards in a development build', () => {
  beforeEach(() => vi.stubEnv('DEV', true));

  it('lets everyone in on a development host without asking the server', async () => {
    const fetchMock = mockFetch({});
    renderGuarded();
    expect(await screen.findByText('Secret admin page')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});

describe('isDevelopmentHost', () => {
  it('recognises local and hosted development hosts only', () => {
    expect(isDevelopmentHost('localhost')).toBe(true);
    expect(isDevelopmentHost('127.0.0.1')).toBe(true);
    expect(isDevelopmentHost('my-app.replit.dev')).toBe(true);
    expect(isDevelopmentHost('whatweowethedead.com')).toBe(false);
    expect(isDevelopmentHost('localhost.example.com')).toBe(false);
  });
});
