import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import ForgotPasswordPage from './forgot-password';

function renderPage() {
  return renderAt(
    <>
      <ForgotPasswordPage />
      <ToastProbe />
    </>,
    '/forgot-password',
  );
}

const answer = (handler: () => Response | Promise<Response>) =>
  mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'csrf' }), '/api/users/forgot-password': handler });

beforeEach(() => ResetState());
afterEach(() => vi.unstubAllGlobals());

async function submit(email: string) {
  if (email) await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('Forgot password page', () => {
  it('requires an email, and a valid one', async () => {
    const fetchMock = answer(() => json({ success: true }));
    renderPage();
    await submit('');
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await submit('reader@nowhere');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/users/forgot-password')).toBe(false);
  });

  it.each([
    ['a success', () => json({ success: true, message: 'sent' })],
    ['a server error', () => new Response('boom', { status: 500 })],
    ['a rate limit', () => json({ message: 'Too many password reset requests.' }, 429)],
  ])('shows "Check Your Email" after %s, with the 1 hour validity and the spam folder', async (_label, handler) => {
    const fetchMock = answer(handler);
    renderPage();
    await submit('reader@example.com');
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText(/valid for 1 hour/)).toBeInTheDocument();
    expect(screen.getByText(/spam folder/)).toBeInTheDocument();
    expect(screen.getByText('reader@example.com')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users/forgot-password')!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ email: 'reader@example.com' });
    expect(toastText()).toBe('');
  });

  it('shows only a toast on a network error', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    renderPage();
    await submit('reader@example.com');
    await waitFor(() =>
      expect(toastText()).toBe('Error / An error occurred while processing your request. Please try again later.'),
    );
    expect(screen.queryByRole('heading', { name: 'Check Your Email' })).not.toBeInTheDocument();
  });

  it('reads "Sending..." while the request is under way', async () => {
    let release: ((r: Response) => void) | null = null;
    answer(() => new Promise<Response>((resolve) => (release = resolve)));
    renderPage();
    await submit('reader@example.com');
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    await waitFor(() => expect(release).not.toBeNull());
    release!(json({ success: true }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
  });
});
