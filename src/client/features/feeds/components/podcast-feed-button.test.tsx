import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { PodcastFeedButton } from './podcast-feed-button';

describe('PodcastFeedButton', () => {
  it('shows the private feed address with a copy button, and a new address on request', async () => {
    let address = 'https://example.com/files/podcast/1-first';
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/library/4/audiobook/feed-link': () => json({ success: true, feedUrl: address, message: 'Your private podcast feed address is ready. Add it to your podcast app; do not share it.' }),
      '/api/library/4/audiobook/feed-link/regenerate': () => {
        address = 'https://example.com/files/podcast/2-second';
        return json({ success: true, feedUrl: address, message: 'A new feed address is ready. The old address no longer works.' });
      },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt(<PodcastFeedButton bookId={4} title="What We Owe the Dead" />);

    await userEvent.click(screen.getByRole('button', { name: 'Listen to What We Owe the Dead in a podcast app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Listen in your podcast app' });
    expect(
      within(dialog).getByText('Add this private address to your podcast app to hear What We Owe the Dead chapter by chapter. Listening does not use up your download. Keep the address to yourself.'),
    ).toBeInTheDocument();
    const field = await within(dialog).findByLabelText('Feed address');
    expect(field).toHaveValue('https://example.com/files/podcast/1-first');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy feed address' }));
    expect(writeText).toHaveBeenCalledWith('https://example.com/files/podcast/1-first');

    await userEvent.click(within(dialog).getByRole('button', { name: 'New address' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('A new feed address is ready. The old address no longer works.');
    expect(within(dialog).getByLabelText('Feed address')).toHaveValue('https://example.com/files/podcast/2-second');
    const post = fetch.mock.calls.find(([url]) => String(url).endsWith('/regenerate'))!;
    expect(post[1]!.method).toBe('POST');
  });

  it("shows the server's refusal when the reader does not own the audiobook", async () => {
    mockFetch({ '/api/library/4/audiobook/feed-link': () => json({ message: 'You have not purchased this format', code: 'FORBIDDEN' }, 403) });
    renderAt(<PodcastFeedButton bookId={4} title="What We Owe the Dead" />);
    await userEvent.click(screen.getByRole('button', { name: 'Listen to What We Owe the Dead in a podcast app' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have not purchased this format');
  });
});
