import { BookOpen, Newspaper, PoundSterling, Users } from 'lucide-react';
import { PURCHASE_FORMATS } from '@shared/constants';
import type { DashboardStats } from '@shared/schemas/dashboard';
import { formatCount, formatDecimal, formatMoney, formatPercent, share } from '@client/lib/format';
import { countOf } from '@client/lib/plural';
import { FORMAT_LABELS } from './figures';
import { Meter, Panel, StatCard } from './stat-card';

export function OverviewTab({ stats }: { stats: DashboardStats }) {
  const { userStats, salesStats, contentStats, engagementStats } = stats;
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Users"
          icon={Users}
          value={formatCount(userStats.totalUsers)}
          detail={
            <>
              <span className="block">{`${formatCount(userStats.subscribedUsers)} subscribed (${formatPercent(userStats.percentSubscribed)})`}</span>
              <span className="block">{READERS_ONLY}</span>
            </>
          }
        />
        <StatCard
          label="Sales"
          icon={PoundSterling}
          value={formatCount(salesStats.totalSales)}
          detail={`${formatMoney(salesStats.totalRevenue)} revenue`}
        />
        <StatCard
          label="Books & Reviews"
          icon={BookOpen}
          value={formatCount(contentStats.totalBooks)}
          detail={`${countOf(contentStats.totalReviews, 'review')}, average ${formatDecimal(contentStats.avgRating)}`}
        />
        <StatCard
          label="Blog Posts"
          icon={Newspaper}
          value={`${formatCount(contentStats.publishedPosts)} / ${formatCount(contentStats.totalPosts)}`}
          detail="published / total"
        />
      </div>

      <Panel title="Sales by Book" description="Copies sold per format">
        {salesStats.salesByBook.length === 0 ? (
          <p className="text-bone-300">No data available</p>
        ) : (
          <ul className="grid gap-5">
            {salesStats.salesByBook.map((book) => (
              <li key={book.id} className="rounded-lg border border-ink-700 p-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h3 className="font-semibold text-bone-50">{book.title}</h3>
                  <p className="text-sm text-bone-300 tabular-nums">
                    {countOf(book.totalSales, 'sale')} · {formatMoney(book.revenue)}
                  </p>
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                  {PURCHASE_FORMATS.map((format) => (
                    <div key={format} className="rounded-md bg-ink-800/70 px-3 py-2">
                      <dt className="text-bone-300">{FORMAT_LABELS[format]}</dt>
                      <dd className="font-semibold text-bone-50 tabular-nums">{formatCount(book.salesByFormat[format])}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="User Engagement">
          <dl className="grid grid-cols-2 gap-4">
            <Figure label="Total activities" value={formatCount(engagementStats.totalActivities)} />
            <Figure label="Total downloads" value={formatCount(engagementStats.totalDownloads)} />
            <Figure label="Subscribed readers" value={formatCount(userStats.subscribedUsers)} />
            <Figure label="Subscription rate" value={formatPercent(userStats.percentSubscribed)} />
            <Figure label="Newsletter subscribers" value={formatCount(userStats.newsletterSubscribers)} />
          </dl>
        </Panel>
        <Panel title="Content Performance">
          <div className="grid gap-4">
            <Meter
              label="Posts published"
              value={`${formatCount(contentStats.publishedPosts)} of ${formatCount(contentStats.totalPosts)}`}
              percent={share(contentStats.publishedPosts, contentStats.totalPosts)}
            />
            <Meter
              label="Average rating"
              value={`${formatDecimal(contentStats.avgRating)} / 5`}
              percent={share(contentStats.avgRating, 5)}
            />
          </div>
        </Panel>
      </div>
    </div>
  );
}

/** Decision 0022: who the user figures count. */
export const READERS_ONLY = 'Readers only: admins and the demo reader are not counted';

export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm text-bone-300">{label}</dt>
      <dd className="mt-1 font-display text-2xl font-semibold text-bone-50 tabular-nums">{value}</dd>
    </div>
  );
}
