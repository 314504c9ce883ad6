import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@shared/constants';
import { json, mockFetch, renderAt, renderWithRouter } from '@client/test/render';
import { AccountDetails } from '@client/features/auth/components/account-details';
import { LocationProbe, locationText, ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import ProfilePage from './profile';

const PROFILE = {
  id: 5,
  username: 'maraquinn',
  email: 'mara@example.com',
  displayName: 'Mara Quinn',
  avatarUrl: null,
  isSubscribed: false,
  role: 'user',
  points: 0,
  createdAt: '2026-03-14T10:00:00.000Z',
};

function serve(options: { signedIn?: boolean; role?: 'user' | 'admin'; profile?: () => Response | Promise<Response> } = {}) {
  const role = options.role ?? 'user';
  return mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/check-auth': () =>
      json(options.signedIn === false ? { isAuthenticated: false, user: null } : { isAuthenticated: true, user: { id: 5, role } }),
    '/api/users/5': options.profile ?? (() => json({ ...PROFILE, role })),
    '/api/library/books': () => json([]),
    '/api/library/orders': () => json([]),
    '/api/users/logout': () => json({ success: true, message: 'Logged out successfully' }),
  });
}

function renderProfile(path = '/profile') {
  const probes = (
    <>
      <ToastProbe />
      <LocationProbe />
    </>
  );
  return renderWithRouter(
    [
      {
        path: '/profile',
        element: (
          <>
            <ProfilePage />
            {probes}
          </>
        ),
      },
      { path: '*', element: probes },
    ],
    path,
  );
}

beforeEach(() => ResetState());
afterEach(() => vi.unstubAllGlobals());

describe('Profile page', () => {
  it('signed out: a login prompt with a Login button', async () => {
    serve({ signedIn: false });
    renderProfile();
    expect(screen.getByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('signed in: Account Details and My Library tabs, links back home and a Logout button', async () => {
    serve();
    renderProfile();
    expect(await screen.findByRole('tab', { name: 'Account Details' })).toHaveAttribute('data-state', 'active');
    expect(screen.getByRole('tab', { name: 'My Library' })).toBeInTheDocument();
    const nav = within(screen.getByRole('navigation', { name: 'Back to the book' }));
    expect(nav.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(nav.getByRole('link', { name: 'Synopsis' })).toHaveAttribute('href', '/#synopsis');
    expect(nav.getByRole('link', { name: 'Reviews' })).toHaveAttribute('href', '/#reviews');
    expect(nav.getByRole('link', { name: 'Purchase' })).toHaveAttribute('href', '/#purchase');
    expect(nav.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Mara Quinn' })).toBeInTheDocument();
  });

  it('chooses the tab from #library and keeps the hash in step with the tab', async () => {
    serve();
    renderProfile('/profile#library');
    expect(await screen.findByRole('tab', { name: 'My Library' })).toHaveAttribute('data-state', 'active');
    await userEvent.click(screen.getByRole('tab', { name: 'Account Details' }));
    await waitFor(() => expect(locationText()).toBe('/profile'));
    expect(screen.getByRole('tab', { name: 'Account Details' })).toHaveAttribute('data-state', 'active');
    await userEvent.click(screen.getByRole('tab', { name: 'My Library' }));
    await waitFor(() => expect(locationText()).toBe('/profile#library'));
  });

  it('Logout signs out and leaves /profile for /', async () => {
    serve();
    window.localStorage.setItem(STORAGE_KEYS.authToken, 'bearer');
    renderProfile();
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(locationText()).toBe('/'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
    expect(toastText()).toBe('Logged out successfully / You have been logged out of your account.');
  });

  it('returnTo=purchase goes on to /#purchase, with a short toast when an intent is waiting', async () => {
    serve();
    window.localStorage.setItem(STORAGE_KEYS.purchaseIntent, JSON.stringify({ format: 'ebook', returnToPurchase: true, timestamp: Date.now() }));
    renderProfile('/profile?returnTo=purchase');
    await waitFor(() => expect(locationText()).toBe('/#purchase'));
    expect(toastText()).toContain('Resuming your purchase');
  });

  it('returnTo=purchase without an intent goes to /#purchase without a toast', async () => {
    serve();
    renderProfile('/profile?returnTo=purchase');
    await waitFor(() => expect(locationText()).toBe('/#purchase'));
    expect(toastText()).toBe('');
  });
});

describe('Account details', () => {
  const renderDetails = (userId?: number) =>
    renderAt(
      <>
        <AccountDetails userId={userId} />
        <ToastProbe />
      </>,
    );

  it('without a userId: "Not Logged In"', () => {
    serve();
    renderDetails();
    expect(screen.getByText('Not Logged In')).toBeInTheDocument();
    expect(
      screen.getByText('Log in or create an account to access your digital purchases and manage your account.'),
    ).toBeInTheDocument();
  });

  it('shows a skeleton while loading', async () => {
    let release: ((r: Response) => void) | null = null;
    serve({ profile: () => new Promise<Response>((resolve) => (release = resolve)) });
    renderDetails(5);
    expect(screen.getByTestId('account-skeleton')).toBeInTheDocument();
    await waitFor(() => expect(release).not.toBeNull());
    release!(json(PROFILE));
    expect(await screen.findByRole('heading', { name: 'Mara Quinn' })).toBeInTheDocument();
  });

  it('on failure: the toast and the inline alert', async () => {
    serve({ profile: () => new Response('boom', { status: 500 }) });
    renderDetails(5);
    expect(await screen.findByText('Failed to load user profile. Please refresh the page and try again.')).toBeInTheDocument();
    await waitFor(() => expect(toastText()).toBe('Error / Failed to load user profile data'));
  });

  it('shows initials, the display name, the join date, the welcome text and the buttons', async () => {
    serve();
    renderDetails(5);
    expect(await screen.findByRole('heading', { name: 'Mara Quinn' })).toBeInTheDocument();
    expect(screen.getByText('MA')).toBeInTheDocument();
    expect(screen.getByText('Joined March 14, 2026')).toBeInTheDocument();
    expect(screen.getByText(/Welcome back, Mara Quinn/)).toBeInTheDocument();
    for (const name of ['Update Email', 'Edit Profile', 'Change Password']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.queryByText('Admin Account')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('shows the points earned for sharing and subscribing, with the right plural', async () => {
    serve({ profile: () => json({ ...PROFILE, points: 60 }) });
    renderDetails(5);
    expect(await screen.findByRole('group', { name: 'Points' })).toHaveTextContent('60 points');
    expect(screen.getByText('Earned by sharing the book and subscribing to the newsletter.')).toBeInTheDocument();
  });

  it('says "1 point", not "1 points"', async () => {
    serve({ profile: () => json({ ...PROFILE, points: 1 }) });
    renderDetails(5);
    expect(await screen.findByRole('group', { name: 'Points' })).toHaveTextContent(/^Points1 point$/);
  });

  it('falls back to the username and shows an avatar image when there is one', async () => {
    serve({ profile: () => json({ ...PROFILE, displayName: null, avatarUrl: '/avatars/mara.png' }) });
    const { container } = renderDetails(5);
    expect(await screen.findByRole('heading', { name: 'maraquinn' })).toBeInTheDocument();
    expect(container.querySelector('img')).toHaveAttribute('src', '/avatars/mara.png');
  });

  it('admins also see the Admin Account banner and the Admin Dashboard button, both to /admin', async () => {
    serve({ role: 'admin' });
    renderDetails(5);
    expect(await screen.findByText('Admin Account')).toBeInTheDocument();
    expect(screen.getByText('Admin Account').closest('a')).toHaveAttribute('href', '/admin');
    expect(screen.getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
  });
});
