import type { DashboardStats } from '@shared/schemas/dashboard';
import { formatCount, formatDecimal, formatPercent, share } from '@client/lib/format';
import { countOf } from '@client/lib/plural';
import { Meter, Panel, StatCard } from './stat-card';

export function ContentTab({ stats }: { stats: DashboardStats }) {
  const c = stats.contentStats;
  const publicationRate = share(c.publishedPosts, c.totalPosts);
  const reviewsPerBook = c.totalBooks > 0 ? c.totalReviews / c.totalBooks : 0;
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Books" value={formatCount(c.totalBooks)} />
        <StatCard label="Blog Posts" value={`${formatCount(c.publishedPosts)} / ${formatCount(c.totalPosts)}`} detail="published / total" />
        <StatCard label="Average Rating" value={formatDecimal(c.avgRating)} detail={`from ${countOf(c.totalReviews, 'review')}`} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Ratings">
          <p className="text-sm text-bone-300">A breakdown of ratings by star is not available.</p>
          <div className="mt-4">
            <Meter label="Average rating" value={`${formatDecimal(c.avgRating)} / 5`} percent={share(c.avgRating, 5)} />
          </div>
        </Panel>
        <Panel title="Content Metrics">
          <div className="grid gap-4">
            <Meter label="Publication rate" value={formatPercent(publicationRate)} percent={publicationRate} />
            <div className="flex justify-between text-sm">
              <span className="text-bone-100">Reviews per book</span>
              <span className="text-bone-300 tabular-nums">{formatDecimal(reviewsPerBook)}</span>
            </div>
          </div>
        </Panel>
      </div>
    </div>
  );
}
