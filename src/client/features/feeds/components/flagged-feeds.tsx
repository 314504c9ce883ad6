/**
 * The author's view of private podcast feeds fetched from more addresses in a day than a household uses
 * (decision 0086): who, which book, how many addresses and when. Nothing is blocked automatically.
 */
import { useQuery } from '@tanstack/react-query';
import { Podcast } from 'lucide-react';
import type { FlaggedFeed } from '@shared/schemas/feeds';
import { apiRequest } from '@client/lib/api-client';
import { formatDateTime } from '@client/lib/format';

export function FlaggedFeeds() {
  const feeds = useQuery({
    queryKey: ['/api/admin/audiobook-feeds/flagged'],
    // Its own fetch, not the feeds API module: the admin chunk and the profile chunk then share no new
    // chunk, whose name every page's boot script would have to list.
    queryFn: async ({ signal }) => ((await (await apiRequest('GET', '/api/admin/audiobook-feeds/flagged', undefined, { signal })).json()) as { feeds: FlaggedFeed[] }),
    staleTime: 0,
  });
  const all = feeds.data?.feeds ?? [];
  if (all.length === 0) return null;
  return (
    <section aria-labelledby="flagged-feeds-title" className="mb-8 rounded-xl border border-ink-700 bg-ink-900/80 p-5 shadow-xl shadow-black/30 sm:p-6">
      <h2 id="flagged-feeds-title" className="flex items-center gap-2 font-display text-xl font-semibold text-bone-50">
        <Podcast aria-hidden="true" className="size-5 text-blood-400" /> Shared podcast feeds
      </h2>
      <p className="mt-1 text-sm text-bone-300">
        Private audiobook feeds fetched from more addresses in one day than a household uses. The reader can stop a
        shared address by making a new one.
      </p>
      <ul className="mt-4 grid gap-3">
        {all.map((feed) => (
          <li key={feed.id} data-testid={`flagged-feed-${feed.id}`} className="rounded-lg border border-ink-600 bg-ink-950/60 px-4 py-3 text-sm text-bone-200">
            <span className="font-medium text-bone-50">{feed.username}</span> ({feed.email}) · {feed.bookTitle} · {feed.addresses} addresses on{' '}
            {formatDateTime(feed.flaggedAt)}
            {feed.retiredAt ? ' · address since replaced' : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
