import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@shared/constants';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch, renderAt } from '@client/test/render';
import { NewsletterSection } from './newsletter-section';

const DEMO = { username: 'demo-reader', password: 'Demo-Pass-1!' };

function renderSection(demo: typeof DEMO | null = DEMO) {
  renderAt(
    <>
      <NewsletterSection demo={demo} />
      <Toaster />
    </>,
  );
  return userEvent.setup();
}

const signedOut = () => json({ isAuthenticated: false, user: null });
const signedIn = () => json({ isAuthenticated: true, user: { id: 7, role: 'user' } });

describe('NewsletterSection', () => {
  beforeEach(() => {
    clearCsrfToken();
    act(() => resetToastStore());
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each(['', 'reader', 'reader@example', 'a b@c.d'])('rejects %j with "Invalid Email" and calls nothing', async (email) => {
    const fetchMock = mockFetch({ '/api/users/check-auth': signedOut });
    const user = renderSection();
    if (email) await user.type(screen.getByLabelText('Email address'), email);
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Invalid Email')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/subscribe')).toBe(false);
  });

  it('subscribes ("Subscribing..." while busy), clears the email and shows the points', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetchMock = mockFetch({
      '/api/users/check-auth': signedIn,
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/subscribe': async () => {
        await gate;
        return json({ message: 'Welcome to the Thriller Circle!', pointsEarned: 50 });
      },
    });
    const user = renderSection();
    await user.type(screen.getByLabelText('Email address'), 'reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('button', { name: 'Subscribing...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Subscribed Successfully')).toBeInTheDocument();
    expect(screen.getByText(/You earned 50 points!/)).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue('');
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/subscribe')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ email: 'reader@example.com', name: '' });
  });

  it('shows "Subscription Failed" when the server refuses', async () => {
    mockFetch({
      '/api/users/check-auth': signedOut,
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/subscribe': () => json({ message: 'nope' }, 500),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = renderSection();
    await user.type(screen.getByLabelText('Email address'), 'reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Subscription Failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error subscribing to the newsletter. Please try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue('reader@example.com');
  });

  it('labels Demo Login as a demo feature that is off in production', async () => {
    mockFetch({ '/api/users/check-auth': () => json({ isAuthenticated: false, user: null }) });
    renderSection();
    const button = await screen.findByRole('button', { name: 'Demo Login' });
    expect(button).toHaveAccessibleDescription('Demo feature: signs you in as a sample reader. It is off in production.');
    expect(screen.getByText('Demo', { exact: true })).toBeVisible();
  });

  it('hides the demo Login when the operator turned it off', async () => {
    mockFetch({ '/api/users/check-auth': signedOut });
    renderSection(null);
    await screen.findByRole('button', { name: 'Subscribe' });
    expect(screen.queryByRole('button', { name: /Demo Login/ })).not.toBeInTheDocument();
  });

  it('demo Login sends the fixed demo credentials, stores the token and shows "Login Successful"', async () => {
    let authed = false;
    const fetchMock = mockFetch({
      '/api/users/check-auth': () => (authed ? signedIn() : signedOut()),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/login': () => {
        authed = true;
        return json({ success: true, user: { id: 7, role: 'user' }, token: 'bearer-1', message: 'ok' });
      },
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Demo Login' }));
    expect(await screen.findByText('Login Successful')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/users/login')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual(DEMO);
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('bearer-1');
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('demo Login failure shows "Login Failed" with the server message, or "Login Error" offline', async () => {
    mockFetch({
      '/api/users/check-auth': signedOut,
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/login': () => json({ message: 'Invalid username or password' }, 401),
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Demo Login' }));
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();

    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      '/api/users/check-auth': signedOut,
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await user.click(screen.getByRole('button', { name: 'Demo Login' }));
    expect(await screen.findByText('Login Error')).toBeInTheDocument();
    expect(screen.getByText('An error occurred during login')).toBeInTheDocument();
  });

  it('Logout removes the token first and shows "Logout Successful"', async () => {
    window.localStorage.setItem(STORAGE_KEYS.authToken, 'bearer-1');
    let authed = true;
    let tokenAtLogout: string | null = 'unset';
    mockFetch({
      '/api/users/check-auth': () => (authed ? signedIn() : signedOut()),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/logout': () => {
        tokenAtLogout = window.localStorage.getItem(STORAGE_KEYS.authToken);
        authed = false;
        return json({ success: true, message: 'Logged out' });
      },
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logout Successful')).toBeInTheDocument();
    expect(tokenAtLogout).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Demo Login' })).toBeInTheDocument());
  });

  it('Logout failure shows "Logout Failed" with the server message', async () => {
    mockFetch({
      '/api/users/check-auth': signedIn,
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/logout': () => json({ message: 'Session store unavailable' }, 503),
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logout Failed')).toBeInTheDocument();
    expect(screen.getByText('Session store unavailable')).toBeInTheDocument();
  });
});
