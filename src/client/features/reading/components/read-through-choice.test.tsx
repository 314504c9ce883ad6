import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ReadThroughChoice } from './read-through-choice';

describe('ReadThroughChoice', () => {
  it('shows whether the reader is counted and saves turning it off', async () => {
    const fetch = mockFetch({
      '/api/reading/read-through': (_url, init) => json(init.method === 'PUT' ? JSON.parse(String(init.body)) : { counted: true }),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
    });
    renderAt(<ReadThroughChoice />, '/profile');
    const box = await screen.findByRole('checkbox', { name: 'Count my reading in these statistics' });
    expect(box).toBeChecked();
    await userEvent.setup().click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put![1]!.body))).toEqual({ counted: false });
  });
});
