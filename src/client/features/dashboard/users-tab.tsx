import type { DashboardStats } from '@shared/schemas/dashboard';
import { formatCount, formatDecimal, formatPercent, share } from '@client/lib/format';
import { READERS_ONLY } from './overview-tab';
import { Meter, Panel, StatCard } from './stat-card';

export function UsersTab({ stats }: { stats: DashboardStats }) {
  const { userStats, engagementStats } = stats;
  const notSubscribed = userStats.totalUsers - userStats.subscribedUsers;
  const activitiesPerUser = userStats.totalUsers > 0 ? engagementStats.totalActivities / userStats.totalUsers : 0;
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <StatCard label="Total Users" value={formatCount(userStats.totalUsers)} detail={READERS_ONLY} />
        <StatCard label="Subscribed" value={formatCount(userStats.subscribedUsers)} detail="Readers with an active newsletter subscription" />
        <StatCard
          label="Newsletter Subscribers"
          value={formatCount(userStats.newsletterSubscribers)}
          detail="Active subscriptions, with or without an account, as on the Subscribers page"
        />
        <StatCard label="Subscription Rate" value={formatPercent(userStats.percentSubscribed)} />
        <StatCard label="Activities per User" value={formatDecimal(activitiesPerUser)} />
      </div>
      <Panel title="Subscribed vs Not Subscribed">
        <div className="grid gap-4">
          <Meter
            label="Subscribed"
            value={`${formatCount(userStats.subscribedUsers)} (${formatPercent(share(userStats.subscribedUsers, userStats.totalUsers))})`}
            percent={share(userStats.subscribedUsers, userStats.totalUsers)}
          />
          <Meter
            label="Not subscribed"
            value={`${formatCount(notSubscribed)} (${formatPercent(share(notSubscribed, userStats.totalUsers))})`}
            percent={share(notSubscribed, userStats.totalUsers)}
          />
        </div>
      </Panel>
    </div>
  );
}
