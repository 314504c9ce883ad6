import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@shared/constants';
import { USERNAME_LATIN_ONLY } from '@shared/usernames';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { LocationProbe, locationText, ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import LoginPage from './login';

function renderLogin(path = '/login') {
  const page = (
    <>
      <LoginPage />
      <ToastProbe />
      <LocationProbe />
    </>
  );
  const other = (
    <>
      <ToastProbe />
      <LocationProbe />
    </>
  );
  return renderWithRouter(
    [
      { path: '/login', element: page },
      { path: '*', element: other },
    ],
    path,
  );
}

/** A server double: who is signed in after login/register and what login answers. */
function server(options: { login?: () => Response | Promise<Response>; register?: () => Response | Promise<Response>; role?: 'user' | 'admin' } = {}) {
  const state = { signedIn: false as boolean, role: options.role ?? 'user', bodies: [] as unknown[] };
  const fetchMock = mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/check-auth': () =>
      json(state.signedIn ? { isAuthenticated: true, user: { id: 5, role: state.role } } : { isAuthenticated: false, user: null }),
    '/api/users/login': async (_url, init) => {
      state.bodies.push(JSON.parse(String(init.body)));
      if (options.login) return options.login();
      state.signedIn = true;
      return json({ success: true, user: { id: 5, role: state.role }, token: 'bearer-123', message: 'Login successful' });
    },
    '/api/users/register': async (_url, init) => {
      state.bodies.push(JSON.parse(String(init.body)));
      if (options.register) return options.register();
      state.signedIn = true;
      return json({ id: 5, token: 'bearer-new', message: 'Registration successful' }, 201);
    },
    '/api/books/featured': () => json({ id: 1, title: 'What We Owe the Dead' }),
  });
  return { state, fetchMock };
}

const user = () => userEvent.setup();
const loginForm = () => within(screen.getByRole('form', { name: 'Sign in' }));
const registerForm = () => within(screen.getByRole('form', { name: 'Create an account' }));

beforeEach(() => ResetState());
afterEach(() => vi.unstubAllGlobals());

describe('Login page: layout', () => {
  it('shows the Login and Register tabs and the Administrator Access link without returnTo', async () => {
    server();
    renderLogin();
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('data-state', 'active');
    expect(screen.getByRole('tab', { name: 'Register' })).toBeInTheDocument();
    expect(loginForm().getByLabelText('Username or Email')).toBeInTheDocument();
    expect(loginForm().getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/forgot-password');
    expect(loginForm().getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Administrator Access' })).toHaveAttribute('href', '/login?returnTo=admin');
    expect(screen.queryByText('Admin Access')).not.toBeInTheDocument();
  });

  it('reads "Admin Access" with a red border for returnTo=admin, without the Administrator Access link', () => {
    server();
    renderLogin('/login?returnTo=admin');
    expect(screen.getByRole('heading', { name: 'Admin Access' })).toBeInTheDocument();
    expect(screen.getByTestId('login-card')).toHaveClass('border-blood-500');
    expect(screen.queryByRole('link', { name: 'Administrator Access' })).not.toBeInTheDocument();
  });

  it('hides the Administrator Access link whenever a returnTo is present', () => {
    server();
    renderLogin('/login?returnTo=purchase');
    expect(screen.queryByRole('link', { name: 'Administrator Access' })).not.toBeInTheDocument();
    expect(screen.getByTestId('login-card')).not.toHaveClass('border-blood-500');
  });

  it('treats the footer link /login?admin=1 as the admin variant', () => {
    server();
    renderLogin('/login?admin=1');
    expect(screen.getByRole('heading', { name: 'Admin Access' })).toBeInTheDocument();
  });
});

describe('Login tab', () => {
  it('validates: username or email required, a valid email when it has @, password required', async () => {
    const { fetchMock } = server();
    renderLogin();
    await user().click(loginForm().getByRole('button', { name: 'Sign In' }));
    expect(await loginForm().findByText('Username or email is required')).toBeInTheDocument();
    expect(loginForm().getByText('Password is required')).toBeInTheDocument();
    await user().type(loginForm().getByLabelText('Username or Email'), 'reader@nowhere');
    await user().click(loginForm().getByRole('button', { name: 'Sign In' }));
    expect(await loginForm().findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users/login')).toBe(false);
  });

  it('Tab from the username goes to the password, and "Forgot Password?" comes after it', async () => {
    server();
    renderLogin();
    const u = user();
    await u.click(loginForm().getByLabelText('Username or Email'));
    await u.keyboard('mara');
    await u.tab();
    expect(loginForm().getByLabelText('Password')).toHaveFocus();
    await u.tab();
    expect(loginForm().getByRole('button', { name: 'Show password' })).toHaveFocus();
    await u.tab();
    expect(loginForm().getByRole('link', { name: 'Forgot Password?' })).toHaveFocus();
    await u.tab();
    expect(loginForm().getByRole('button', { name: 'Sign In' })).toHaveFocus();
  });

  async function signIn(username = 'mara', password = 'Quiet-River-42!') {
    await user().type(loginForm().getByLabelText('Username or Email'), username);
    await user().type(loginForm().getByLabelText('Password'), password);
    await user().click(loginForm().getByRole('button', { name: 'Sign In' }));
  }

  it('signs a reader in: stores the token, toasts "Login Successful" and goes to /profile after a second', async () => {
    const { state } = server();
    renderLogin();
    await signIn();
    await waitFor(() => expect(toastText()).toContain('Login Successful'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('bearer-123');
    expect(state.bodies[0]).toEqual({ username: 'mara', password: 'Quiet-River-42!' });
    expect(locationText()).toBe('/login');
    await waitFor(() => expect(locationText()).toBe('/profile'), { timeout: 2500 });
  });

  it('sends an admin to /admin (with or without returnTo=admin)', async () => {
    server({ role: 'admin' });
    renderLogin('/login?returnTo=admin');
    await signIn('author');
    await waitFor(() => expect(locationText()).toBe('/admin'), { timeout: 2500 });
  });

  it('sends an admin who came without returnTo to /admin too', async () => {
    server({ role: 'admin' });
    renderLogin();
    await signIn('author');
    await waitFor(() => expect(locationText()).toBe('/admin'), { timeout: 2500 });
  });

  it('resumes the purchase for returnTo=purchase (no saved intent: back to /#purchase)', async () => {
    server();
    renderLogin('/login?returnTo=purchase');
    await signIn();
    await waitFor(() => expect(locationText()).toBe('/#purchase'), { timeout: 2500 });
  });

  it('shows "Login Failed" with the server message', async () => {
    server({ login: () => json({ message: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.' }, 429) });
    renderLogin();
    await signIn();
    await waitFor(() =>
      expect(toastText()).toBe('Login Failed / Too many failed sign-in attempts. Please wait 15 minutes and try again.'),
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBeNull();
  });

  it('falls back to "Invalid username or password" when the server gives no message', async () => {
    server({ login: () => new Response('', { status: 401 }) });
    renderLogin();
    await signIn();
    await waitFor(() => expect(toastText()).toBe('Login Failed / Invalid username or password'));
  });

  it('shows "Error" / "An error occurred during login" on a network failure', async () => {
    server({ login: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderLogin();
    await signIn();
    await waitFor(() => expect(toastText()).toBe('Error / An error occurred during login'));
  });
});

describe('Register tab', () => {
  async function openRegister() {
    await user().click(screen.getByRole('tab', { name: 'Register' }));
    return registerForm();
  }

  it('validates every field with the form messages', async () => {
    const { fetchMock } = server();
    renderLogin();
    const form = await openRegister();
    await user().click(form.getByRole('button', { name: 'Create Account' }));
    expect(await form.findByText('Email is required')).toBeInTheDocument();
    expect(form.getByText('Username is required')).toBeInTheDocument();
    expect(form.getByText('Display name is required')).toBeInTheDocument();
    expect(form.getByText('Password is required')).toBeInTheDocument();
    await user().type(form.getByLabelText('Email'), 'not-an-email');
    await user().type(form.getByLabelText('Password'), 'short');
    await user().click(form.getByRole('button', { name: 'Create Account' }));
    expect(await form.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(form.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users/register')).toBe(false);
  });

  it('refuses a username in another script or mixing scripts, and sends full-width letters as plain ones', async () => {
    const { state, fetchMock } = server();
    renderLogin();
    const form = await openRegister();
    await user().type(form.getByLabelText('Email'), 'ada@example.com');
    await user().type(form.getByLabelText('Username'), 'siteаdmin');
    await user().type(form.getByLabelText('Display Name'), 'Ada L');
    await user().type(form.getByLabelText('Password'), 'Quiet-River-42!');
    await user().click(form.getByRole('button', { name: 'Create Account' }));
    expect(await form.findByText(USERNAME_LATIN_ONLY)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users/register')).toBe(false);

    await user().clear(form.getByLabelText('Username'));
    await user().type(form.getByLabelText('Username'), 'ａｄａ７');
    await user().click(form.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(state.bodies).toHaveLength(1));
    expect(state.bodies[0]).toMatchObject({ username: 'ada7' });
  });

  it('shows the strength meter as the password grows, with hints at the weak levels', async () => {
    server();
    renderLogin();
    const form = await openRegister();
    const box = form.getByLabelText('Password');
    expect(form.queryByRole('meter')).not.toBeInTheDocument();
    await user().type(box, 'abc');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Very Weak');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuenow', '20');
    expect(form.getByText('• At least 8 characters')).toBeInTheDocument();
    await user().type(box, 'defgh');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Weak');
    await user().type(box, 'X');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Medium');
    expect(form.queryByText('• Uppercase letters')).not.toBeInTheDocument();
    await user().type(box, '1');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Strong');
    await user().type(box, '!');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Very Strong');
    expect(form.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
  });

  async function fillRegister(form: ReturnType<typeof registerForm>) {
    await user().type(form.getByLabelText('Email'), 'ada@example.com');
    await user().type(form.getByLabelText('Username'), 'ada');
    await user().type(form.getByLabelText('Display Name'), 'Ada L');
    await user().type(form.getByLabelText('Password'), 'Quiet-River-42!');
    await user().click(form.getByRole('button', { name: 'Create Account' }));
  }

  it('creates the account, stores the token, toasts and goes to /profile once signed in', async () => {
    const { state } = server();
    renderLogin();
    await fillRegister(await openRegister());
    await waitFor(() => expect(locationText()).toBe('/profile'));
    expect(state.bodies[0]).toEqual({ email: 'ada@example.com', username: 'ada', displayName: 'Ada L', password: 'Quiet-River-42!' });
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('bearer-new');
    expect(toastText()).toContain('Registration Successful');
  });

  it('carries returnTo=purchase on to the profile page', async () => {
    server();
    renderLogin('/login?returnTo=purchase');
    await fillRegister(await openRegister());
    await waitFor(() => expect(locationText()).toBe('/profile?returnTo=purchase'));
  });

  it('without a session afterwards: clears the fields, switches to Login and prefills the username', async () => {
    server({ register: () => json({ id: 9, message: 'Registration successful' }, 201) });
    renderLogin();
    await fillRegister(await openRegister());
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('data-state', 'active'));
    expect(loginForm().getByLabelText('Username or Email')).toHaveValue('ada');
    await user().click(screen.getByRole('tab', { name: 'Register' }));
    expect(registerForm().getByLabelText('Email')).toHaveValue('');
    expect(registerForm().getByLabelText('Username')).toHaveValue('');
  });

  it('shows "Registration Failed" with the server message and marks the field', async () => {
    server({
      register: () =>
        json({ message: 'That username is already taken. Please choose another.', fields: { username: 'That username is already taken. Please choose another.' } }, 409),
    });
    renderLogin();
    const form = await openRegister();
    await fillRegister(form);
    await waitFor(() => expect(toastText()).toBe('Registration Failed / That username is already taken. Please choose another.'));
    expect(form.getByText('That username is already taken. Please choose another.')).toBeInTheDocument();
  });

  it('falls back to the generic registration message, and reports network errors', async () => {
    server({ register: () => new Response('', { status: 500 }) });
    renderLogin();
    await fillRegister(await openRegister());
    await waitFor(() =>
      expect(toastText()).toBe('Registration Failed / Unable to create account. Please try again with different details.'),
    );
  });

  it('reports a network error during registration', async () => {
    server({ register: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderLogin();
    await fillRegister(await openRegister());
    await waitFor(() => expect(toastText()).toBe('Error / An error occurred during registration'));
  });
});
