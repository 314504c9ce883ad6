import { screen } from '@testing-library/react';
import { json, mockFetch, renderAt } from '@client/test/render';
import { formatDateTime } from '@client/lib/format';
import { FlaggedFeeds } from './flagged-feeds';

describe('FlaggedFeeds', () => {
  it('lists each flagged feed with the reader, the book and the count of addresses', async () => {
    mockFetch({
      '/api/admin/audiobook-feeds/flagged': () =>
        json({
          feeds: [
            { id: 3, flaggedAt: '2026-11-26T21:00:00.000Z', addresses: 14, retiredAt: null, bookTitle: 'What We Owe the Dead', userId: 9, username: 'ada', email: 'ada@example.com' },
          ],
        }),
    });
    renderAt(<FlaggedFeeds />);
    expect(await screen.findByRole('heading', { name: 'Shared podcast feeds' })).toBeInTheDocument();
    expect(screen.getByTestId('flagged-feed-3')).toHaveTextContent(
      `ada (ada@example.com) · What We Owe the Dead · 14 addresses on ${formatDateTime('2026-11-26T21:00:00.000Z')}`,
    );
  });

  it('shows nothing while no feed is flagged', async () => {
    const fetch = mockFetch({ '/api/admin/audiobook-feeds/flagged': () => json({ feeds: [] }) });
    const { container } = renderAt(<FlaggedFeeds />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(container).toBeEmptyDOMElement();
  });
});
