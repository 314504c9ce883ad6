import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ReadingAppCatalogue } from './reading-app-catalogue';

const basicUrl = 'https://example.com/files/opds/catalog';

describe('ReadingAppCatalogue', () => {
  it('turns the catalogue on, shows the address and the password once, renews and turns it off', async () => {
    let state = { enabled: false, catalogueUrl: null as string | null, basicUrl, username: 'ada' };
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/library/opds': (_url, init) => {
        if (init.method === 'POST') {
          state = { ...state, enabled: true, catalogueUrl: 'https://example.com/files/opds/t/7-first' };
          return json({ ...state, password: 'first-password-000000000', message: 'Your reading-app catalogue is on. The password is shown only now.' });
        }
        if (init.method === 'DELETE') {
          state = { ...state, enabled: false, catalogueUrl: null };
          return json({ ...state, message: 'Your reading-app catalogue is off.' });
        }
        return json(state);
      },
      '/api/library/opds/regenerate': () => {
        state = { ...state, catalogueUrl: 'https://example.com/files/opds/t/7-second' };
        return json({ ...state, password: 'second-password-00000000', message: 'A new catalogue address and password are ready. The old ones no longer work.' });
      },
    });
    renderAt(<ReadingAppCatalogue />);

    expect(screen.getByRole('heading', { name: 'Reading apps' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on reading-app catalogue' }));
    expect(await screen.findByText('Your reading-app catalogue is on. The password is shown only now.')).toBeInTheDocument();
    expect(screen.getByLabelText('Catalogue address')).toHaveValue('https://example.com/files/opds/t/7-first');
    expect(screen.getByLabelText('App password')).toHaveValue('first-password-000000000');
    expect(screen.getByText(basicUrl)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New address and password' }));
    expect(await screen.findByText('A new catalogue address and password are ready. The old ones no longer work.')).toBeInTheDocument();
    expect(screen.getByLabelText('Catalogue address')).toHaveValue('https://example.com/files/opds/t/7-second');
    expect(screen.getByLabelText('App password')).toHaveValue('second-password-00000000');

    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Your reading-app catalogue is off.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn on reading-app catalogue' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Catalogue address')).not.toBeInTheDocument();
    expect(fetch.mock.calls.some(([url, init]) => String(url) === '/api/library/opds' && init?.method === 'DELETE')).toBe(true);
  });

  it('says where the password went when the catalogue was turned on earlier', async () => {
    mockFetch({ '/api/library/opds': () => json({ enabled: true, catalogueUrl: 'https://example.com/files/opds/t/7-x', basicUrl, username: 'ada' }) });
    renderAt(<ReadingAppCatalogue />);
    expect(await screen.findByText('The app password was shown when you turned the catalogue on. Lost it? Get a new one.')).toBeInTheDocument();
    expect(screen.queryByLabelText('App password')).not.toBeInTheDocument();
  });
});
