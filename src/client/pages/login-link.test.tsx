import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@shared/constants';
import { LOGIN_LINK_ANSWER } from '@shared/schemas/login-link';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { LocationProbe, locationText, ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import { rememberGiftPath } from '@client/features/gifts/return-path';
import LoginPage from './login';
import LoginLinkPage from './login-link';

function render(path: string) {
  const probes = (
    <>
      <ToastProbe />
      <LocationProbe />
    </>
  );
  return renderWithRouter(
    [
      { path: '/login', element: <><LoginPage />{probes}</> },
      { path: '/login-link', element: <><LoginLinkPage />{probes}</> },
      { path: '*', element: probes },
    ],
    path,
  );
}

function server(answerUse: () => Response = () => json({ success: true, user: { id: 9, role: 'user' }, token: 'bearer-link', message: 'Login successful' })) {
  const state = { signedIn: false, requests: [] as unknown[], uses: [] as unknown[] };
  const fetchMock = mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/check-auth': () =>
      json(state.signedIn ? { isAuthenticated: true, user: { id: 9, role: 'user' } } : { isAuthenticated: false, user: null }),
    '/api/users/login-link': (_url, init) => {
      state.requests.push(JSON.parse(String(init.body)));
      return json(LOGIN_LINK_ANSWER);
    },
    '/api/users/login-link/use': (_url, init) => {
      state.uses.push(JSON.parse(String(init.body)));
      const res = answerUse();
      if (res.ok) state.signedIn = true;
      return res;
    },
  });
  return { state, fetchMock };
}

const user = () => userEvent.setup();
const linkForm = () => within(screen.getByRole('form', { name: 'Email me a sign-in link' }));

beforeEach(() => {
  ResetState();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('Login page: Email me a sign-in link', () => {
  it('opens an email box under the password form, validates it and shows the one answer', async () => {
    const { state } = server();
    render('/login');
    expect(screen.getByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(linkForm().getByText('No password needed: we email you a link that signs you in. It works once, for 15 minutes.')).toBeInTheDocument();
    await user().click(linkForm().getByRole('button', { name: 'Send Sign-In Link' }));
    expect(await linkForm().findByText('Email is required')).toBeInTheDocument();
    await user().type(linkForm().getByLabelText('Email'), 'reader@nowhere');
    await user().click(linkForm().getByRole('button', { name: 'Send Sign-In Link' }));
    expect(await linkForm().findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(state.requests).toHaveLength(0);

    await user().clear(linkForm().getByLabelText('Email'));
    await user().type(linkForm().getByLabelText('Email'), 'mara@example.com');
    await user().click(linkForm().getByRole('button', { name: 'Send Sign-In Link' }));
    const status = await screen.findByTestId('login-link-sent');
    expect(status).toHaveTextContent('Check Your Email');
    expect(status).toHaveTextContent(LOGIN_LINK_ANSWER.message);
    expect(state.requests).toEqual([{ email: 'mara@example.com' }]);
  });

  it('from a purchase, says an email is enough and sends returnTo=purchase', async () => {
    const { state } = server();
    render('/login?returnTo=purchase');
    await user().click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(linkForm().getByText('No password needed. New here? Your email is enough: the link creates your account.')).toBeInTheDocument();
    await user().type(linkForm().getByLabelText('Email'), 'new.reader@example.com');
    await user().click(linkForm().getByRole('button', { name: 'Send Sign-In Link' }));
    await screen.findByTestId('login-link-sent');
    expect(state.requests).toEqual([{ email: 'new.reader@example.com', returnTo: 'purchase' }]);
  });

  it('from a gift claim, keeps the claim page for the tab the link will open', async () => {
    const { state } = server();
    rememberGiftPath('/gift/abc-123');
    render('/login?returnTo=gift');
    await user().click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    await user().type(linkForm().getByLabelText('Email'), 'friend@example.com');
    await user().click(linkForm().getByRole('button', { name: 'Send Sign-In Link' }));
    await screen.findByTestId('login-link-sent');
    expect(state.requests).toEqual([{ email: 'friend@example.com', returnTo: 'gift' }]);
    expect(window.localStorage.getItem('gift.returnPath')).toBe('/gift/abc-123');
  });

  it('is not offered on the admin variant', () => {
    server();
    render('/login?returnTo=admin');
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).not.toBeInTheDocument();
  });
});

describe('Sign-in link page', () => {
  it('changes nothing when opened; "Sign in" posts the token, keeps the session and goes on like a login', async () => {
    const { state, fetchMock } = server();
    render('/login-link?token=tok-123');
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(screen.getByText('Press the button to sign in with the link from your email. It works once.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/users/login-link'))).toBe(false);
    await user().click(button);
    await waitFor(() => expect(toastText()).toContain('Login Successful'));
    expect(state.uses).toEqual([{ token: 'tok-123' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('bearer-link');
    await waitFor(() => expect(locationText()).toBe('/profile'), { timeout: 3000 });
  });

  it('goes back to the claim page kept for a gift', async () => {
    server();
    window.localStorage.setItem('gift.returnPath', '/gift/abc-123');
    render('/login-link?token=tok-9&returnTo=gift');
    await user().click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(locationText()).toBe('/gift/abc-123'), { timeout: 3000 });
    expect(window.localStorage.getItem('gift.returnPath')).toBeNull();
  });

  it('shows the server’s refusal of a used or expired link, without the button', async () => {
    const refusal = 'This sign-in link is invalid, has expired or was already used. Please ask for a new one.';
    server(() => json({ message: refusal, code: 'BAD_REQUEST' }, 400));
    render('/login-link?token=used&returnTo=purchase');
    await user().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/login?returnTo=purchase');
  });

  it('says a link without its token is not complete', () => {
    server();
    render('/login-link');
    expect(screen.getByText('This sign-in link is not complete. Please use the link from your email, or ask for a new one.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });
});
