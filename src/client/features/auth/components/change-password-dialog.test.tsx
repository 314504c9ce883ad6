import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ResetState, ToastProbe, toastText } from '../test/support';
import { ChangePasswordDialog } from './change-password-dialog';

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <ChangePasswordDialog userId={5} open={open} onOpenChange={setOpen} />
      <ToastProbe />
    </>
  );
}

function serve(handlers: { change?: () => Response | Promise<Response>; generate?: () => Response | Promise<Response> } = {}) {
  return mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/5/change-password': handlers.change ?? (() => json({ success: true, message: 'ok' })),
    '/api/generate-password': handlers.generate ?? (() => json({ password: 'Gen3rated-Pass!word' })),
  });
}

const dialog = () => within(screen.getByRole('dialog', { name: 'Change Password' }));
const user = () => userEvent.setup();

beforeEach(() => ResetState());
afterEach(() => vi.unstubAllGlobals());

async function fill(current: string, next: string) {
  if (current) await user().type(dialog().getByLabelText('Current Password'), current);
  if (next) await user().type(dialog().getByLabelText('New Password'), next);
  await user().click(dialog().getByRole('button', { name: 'Update Password' }));
}

describe('Change-password dialog', () => {
  it.each([
    ['', 'Brand-New-Secret-4', 'Current password is required'],
    ['Old-Pass-1!', 'Ab1!', 'Password must be at least 8 characters'],
    ['Old-Pass-1!', 'lowercase-only-1', 'Password must include at least one uppercase letter'],
    ['Old-Pass-1!', 'UPPERCASE-ONLY-1', 'Password must include at least one lowercase letter'],
    ['Old-Pass-1!', 'No-Numbers-Here', 'Password must include at least one number'],
    ['Old-Pass-1!', 'NoSpecials123', 'Password must include at least one special character'],
  ])('refuses %j / %j with "%s"', async (current, next, message) => {
    const fetchMock = serve();
    renderAt(<Harness />);
    await fill(current, next);
    expect(await dialog().findByText(message)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('change-password'))).toBe(false);
  });

  it('re-validates on change after the first submit', async () => {
    serve();
    renderAt(<Harness />);
    await fill('Old-Pass-1!', 'short');
    expect(await dialog().findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user().type(dialog().getByLabelText('New Password'), 'er-Pass');
    expect(await dialog().findByText('Password must include at least one number')).toBeInTheDocument();
    await user().type(dialog().getByLabelText('New Password'), '1');
    await waitFor(() => expect(dialog().queryByRole('alert')).not.toBeInTheDocument());
  });

  it('shows and hides each password', async () => {
    serve();
    renderAt(<Harness />);
    const current = dialog().getByLabelText('Current Password');
    const next = dialog().getByLabelText('New Password');
    expect(current).toHaveAttribute('type', 'password');
    expect(next).toHaveAttribute('type', 'password');
    const toggles = dialog().getAllByRole('button', { name: 'Show password' });
    await user().click(toggles[0]);
    expect(current).toHaveAttribute('type', 'text');
    expect(next).toHaveAttribute('type', 'password');
    await user().click(toggles[1]);
    expect(next).toHaveAttribute('type', 'text');
    await user().click(dialog().getAllByRole('button', { name: 'Hide password' })[0]);
    expect(current).toHaveAttribute('type', 'password');
  });

  it('fills the new password with a generated suggestion ("Generating..." while busy)', async () => {
    let release: ((r: Response) => void) | null = null;
    serve({ generate: () => new Promise<Response>((resolve) => (release = resolve)) });
    renderAt(<Harness />);
    await user().click(dialog().getByRole('button', { name: 'Generate Strong Password' }));
    expect(dialog().getByRole('button', { name: 'Generating...' })).toBeDisabled();
    await waitFor(() => expect(release).not.toBeNull());
    release!(json({ password: 'Gen3rated-Pass!word' }));
    expect(await dialog().findByTestId('password-suggestion')).toHaveTextContent('Suggested password: Gen3rated-Pass!word');
    expect(dialog().getByLabelText('New Password')).toHaveValue('Gen3rated-Pass!word');
    expect(dialog().getByLabelText('New Password')).toHaveAttribute('type', 'text');
  });

  it('toasts when generation fails', async () => {
    serve({ generate: () => new Response('nope', { status: 500 }) });
    renderAt(<Harness />);
    await user().click(dialog().getByRole('button', { name: 'Generate Strong Password' }));
    await waitFor(() => expect(toastText()).toBe('Error / Failed to generate a strong password'));
  });

  it('on success: "Updating..." while busy, then the Success toast, closes and forgets the form and suggestion', async () => {
    let release: ((r: Response) => void) | null = null;
    const fetchMock = serve({ change: () => new Promise<Response>((resolve) => (release = resolve)) });
    renderAt(<Harness />);
    await user().click(dialog().getByRole('button', { name: 'Generate Strong Password' }));
    await dialog().findByTestId('password-suggestion');
    await user().type(dialog().getByLabelText('Current Password'), 'Old-Pass-1!');
    await user().click(dialog().getByRole('button', { name: 'Update Password' }));
    expect(await dialog().findByRole('button', { name: 'Updating...' })).toBeDisabled();
    await waitFor(() => expect(release).not.toBeNull());
    release!(json({ success: true, message: 'ok' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toastText()).toBe('Success / Your password has been updated successfully');
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/users/5/change-password')!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ currentPassword: 'Old-Pass-1!', newPassword: 'Gen3rated-Pass!word' });
    await user().click(screen.getByRole('button', { name: 'Open dialog' }));
    expect(dialog().getByLabelText('Current Password')).toHaveValue('');
    expect(dialog().getByLabelText('New Password')).toHaveValue('');
    expect(dialog().queryByTestId('password-suggestion')).not.toBeInTheDocument();
  });

  it('shows the server message on failure and stays open', async () => {
    serve({ change: () => json({ message: 'Current password is incorrect' }, 400) });
    renderAt(<Harness />);
    await fill('Wrong-Pass-1!', 'Brand-New-Secret-4');
    await waitFor(() => expect(toastText()).toBe('Error / Current password is incorrect'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('falls back to "Failed to change password"', async () => {
    serve({ change: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderAt(<Harness />);
    await fill('Old-Pass-1!', 'Brand-New-Secret-4');
    await waitFor(() => expect(toastText()).toBe('Error / Failed to change password'));
  });
});
