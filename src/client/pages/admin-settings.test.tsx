import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminSettingsPage from './admin-settings';

const SETTINGS = {
  authorName: 'Callum Reyes',
  authorBio: ['A bio paragraph.'],
  publisher: { name: 'Harbour & Vane', url: 'https://example.com' },
  agent: { name: 'Mara Quinn', agency: 'Quinn Literary' },
  social: { x: '', instagram: '', facebook: '', goodreads: '' },
  teaserVideoId: '',
  askSubscribersToConfirm: true,
};

describe('/admin/settings: "Ask new subscribers to confirm"', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the setting as stored and saves it turned off', async () => {
    const saved: unknown[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/admin/settings': (_url, init) => {
        if (init.method === 'PUT') {
          const body = JSON.parse(String(init.body));
          saved.push(body);
          return json(body);
        }
        return json(SETTINGS);
      },
    });
    renderWithRouter([{ path: '/admin/settings', element: <AdminSettingsPage /> }], '/admin/settings');
    const box = await screen.findByRole('checkbox', { name: 'Ask new subscribers to confirm' });
    expect(box).toBeChecked();
    expect(screen.getByText(/Turned off, new sign-ups are confirmed at once\./)).toBeInTheDocument();
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ askSubscribersToConfirm: false, authorName: 'Callum Reyes' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Settings' })).toBeEnabled());
    expect(screen.getByRole('checkbox', { name: 'Ask new subscribers to confirm' })).not.toBeChecked();
  });

  it('shows it off when the site stored it off', async () => {
    mockFetch({ '/api/admin/settings': () => json({ ...SETTINGS, askSubscribersToConfirm: false }) });
    renderWithRouter([{ path: '/admin/settings', element: <AdminSettingsPage /> }], '/admin/settings');
    expect(await screen.findByRole('checkbox', { name: 'Ask new subscribers to confirm' })).not.toBeChecked();
  });
});
