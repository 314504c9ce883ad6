import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ResetState, ToastProbe, toastText } from '@client/features/auth/test/support';
import { AccountDetails } from './account-details';

/** An account made by an emailed sign-in link (decision 0084): no current password, a derived username. */
const PROFILE = {
  id: 7,
  username: 'new.reader',
  email: 'new.reader@example.com',
  displayName: null,
  avatarUrl: null,
  isSubscribed: false,
  role: 'user',
  points: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
  linkOnly: true,
};

function serve() {
  const state = { profile: { ...PROFILE }, bodies: [] as Array<{ url: string; body: unknown }> };
  mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf' }),
    '/api/users/7': () => json(state.profile),
    '/api/users/7/set-password': (url, init) => {
      state.bodies.push({ url, body: JSON.parse(String(init.body)) });
      state.profile.linkOnly = false;
      return json({ success: true, message: 'Your password has been set. You can now also sign in with it.' });
    },
    '/api/users/7/username': (url, init) => {
      const body = JSON.parse(String(init.body)) as { username: string };
      state.bodies.push({ url, body });
      if (body.username === 'taken') {
        const message = 'That username is already taken. Please choose another.';
        return json({ message, code: 'CONFLICT', fields: { username: message } }, 409);
      }
      state.profile.username = body.username;
      return json({ success: true, message: `Your username is now ${body.username}.` });
    },
  });
  return state;
}

beforeEach(() => ResetState());
afterEach(() => vi.unstubAllGlobals());

const render = () =>
  renderAt(
    <>
      <AccountDetails userId={7} />
      <ToastProbe />
    </>,
  );

describe('Account details of an account without a password', () => {
  it('offers "Set Password" with only a new password, then Change Password once it is set', async () => {
    const state = serve();
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Set Password' }));
    expect(screen.queryByRole('button', { name: 'Change Password' })).not.toBeInTheDocument();
    const dialog = within(screen.getByRole('dialog', { name: 'Set Password' }));
    expect(dialog.queryByLabelText('Current Password')).not.toBeInTheDocument();
    await userEvent.type(dialog.getByLabelText('New Password'), 'weak');
    await userEvent.click(dialog.getByRole('button', { name: 'Set Password' }));
    expect(await dialog.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(state.bodies).toHaveLength(0);
    await userEvent.clear(dialog.getByLabelText('New Password'));
    await userEvent.type(dialog.getByLabelText('New Password'), 'Harbour-Lights-42!');
    await userEvent.click(dialog.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(toastText()).toBe('Success / Your password has been set. You can now also sign in with it.'));
    expect(state.bodies).toEqual([{ url: '/api/users/7/set-password', body: { newPassword: 'Harbour-Lights-42!' } }]);
    expect(await screen.findByRole('button', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('lets the derived username be changed, showing a taken name on the field', async () => {
    serve();
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Change Username' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Change Username' }));
    const field = dialog.getByLabelText('Username');
    expect(field).toHaveValue('new.reader');
    await userEvent.clear(field);
    await userEvent.type(field, 'taken');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Username' }));
    expect(await dialog.findByText('That username is already taken. Please choose another.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'QuillAndInk');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Username' }));
    await waitFor(() => expect(toastText()).toBe('Success / Your username is now QuillAndInk.'));
  });
});
