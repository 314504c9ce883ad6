import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { LocationProbe, locationText, ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import ResetPasswordPage from './reset-password';

function renderPage(path: string) {
  return renderWithRouter(
    [
      {
        path: '/reset-password',
        element: (
          <>
            <ResetPasswordPage />
            <ToastProbe />
            <LocationProbe />
          </>
        ),
      },
      { path: '*', element: <LocationProbe /> },
    ],
    path,
  );
}

const VALID = '/reset-password?token=tok-123&email=reader%40example.com';
const answer = (handler: () => Response | Promise<Response>) =>
  mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'csrf' }), '/api/users/reset-password': handler });

beforeEach(() => {
  ResetState();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

async function pastValidation() {
  await act(async () => {
    vi.advanceTimersByTime(1000);
  });
}

describe('Reset password page', () => {
  it('validates for about a second, then shows the form', async () => {
    answer(() => json({ success: true }));
    renderPage(VALID);
    expect(screen.getByText('Validating your reset link...')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(900);
    });
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    await pastValidation();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toBeInTheDocument();
  });

  it.each([
    ['no token', '/reset-password?email=reader%40example.com'],
    ['no email', '/reset-password?token=tok-123'],
    ['nothing', '/reset-password'],
  ])('with %s shows "Invalid Reset Link", a toast and "Request New Link"', async (_label, path) => {
    answer(() => json({ success: true }));
    renderPage(path);
    await pastValidation();
    expect(screen.getByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(toastText()).toBe('Invalid Reset Link / The password reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request New Link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('checks the link with the server as it opens: a used or expired link says so before any typing', async () => {
    const asked: string[] = [];
    mockFetch({
      '/api/users/reset-password/status': (url) => {
        asked.push(String(url));
        return json({ valid: false });
      },
    });
    renderPage(VALID);
    expect(screen.getByText('Validating your reset link...')).toBeInTheDocument();
    await pastValidation();
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(toastText()).toBe('Invalid Reset Link / The password reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request New Link' })).toHaveAttribute('href', '/forgot-password');
    expect(asked).toEqual(['/api/users/reset-password/status?email=reader%40example.com&token=tok-123']);
  });

  it('shows the form for a link the server still accepts', async () => {
    mockFetch({ '/api/users/reset-password/status': () => json({ valid: true }) });
    renderPage(VALID);
    await pastValidation();
    expect(await screen.findByLabelText('New Password')).toBeInTheDocument();
    expect(toastText()).toBe('');
  });

  it.each([
    ['', 'x', 'Password is required'],
    ['Ab1!', 'Ab1!', 'Password must be at least 8 characters long'],
    ['lowercase1!', 'lowercase1!', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE1!', 'UPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['NoNumbers!!', 'NoNumbers!!', 'Password must contain at least one number'],
    ['NoSpecial123', 'NoSpecial123', 'Password must contain at least one special character'],
    ['Good-Pass-123', 'Good-Pass-124', 'Passwords do not match'],
  ])('refuses %j / %j with "%s"', async (password, confirm, message) => {
    const fetchMock = answer(() => json({ success: true }));
    renderPage(VALID);
    await pastValidation();
    if (password) await user().type(screen.getByLabelText('New Password'), password);
    await user().type(screen.getByLabelText('Confirm Password'), confirm);
    await user().click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users/reset-password')).toBe(false);
  });

  async function submitValid() {
    await pastValidation();
    await user().type(screen.getByLabelText('New Password'), 'Lantern-Harbour-77!');
    await user().type(screen.getByLabelText('Confirm Password'), 'Lantern-Harbour-77!');
    await user().click(screen.getByRole('button', { name: 'Reset Password' }));
  }

  it('sends email, token and the new password; then "Password Reset Complete" and /login after 5 s', async () => {
    const fetchMock = answer(() => json({ success: true, message: 'done' }));
    renderPage(VALID);
    await submitValid();
    expect(await screen.findByRole('heading', { name: 'Password Reset Complete' })).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users/reset-password')!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ email: 'reader@example.com', token: 'tok-123', newPassword: 'Lantern-Harbour-77!' });
    expect(screen.getByRole('button', { name: 'Go to Login' })).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(4900);
    });
    expect(locationText()).toBe('/reset-password?token=tok-123&email=reader%40example.com');
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    await waitFor(() => expect(locationText()).toBe('/login'));
  });

  it('"Go to Login" goes straight to /login', async () => {
    answer(() => json({ success: true, message: 'done' }));
    renderPage(VALID);
    await submitValid();
    await user().click(await screen.findByRole('button', { name: 'Go to Login' }));
    await waitFor(() => expect(locationText()).toBe('/login'));
  });

  it('shows "Password Reset Failed" with the server message', async () => {
    answer(() => json({ message: 'The password reset link is invalid or has expired.' }, 400));
    renderPage(VALID);
    await submitValid();
    await waitFor(() => expect(toastText()).toBe('Password Reset Failed / The password reset link is invalid or has expired.'));
  });

  it('falls back to the generic reset failure text (no message, or no network)', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    renderPage(VALID);
    await submitValid();
    await waitFor(() =>
      expect(toastText()).toBe('Password Reset Failed / An error occurred while resetting your password. Please try again.'),
    );
  });

  it('HTML-escapes the query values before use', async () => {
    const fetchMock = answer(() => json({ success: true }));
    renderPage('/reset-password?token=a%3Cb&email=reader%40example.com');
    await submitValid();
    await screen.findByRole('heading', { name: 'Password Reset Complete' });
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users/reset-password')!;
    expect(JSON.parse(String(call[1]?.body)).token).toBe('a&lt;b');
  });
});
