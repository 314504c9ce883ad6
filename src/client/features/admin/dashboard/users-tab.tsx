import type { DashboardStats } from '@shared/schemas/dashboard';
import { formatCount, formatDecimal, formatPercent, share } from '../format';
import { Meter, Panel, StatCard } from './stat-card';

export function UsersTab({ stats }: { stats: DashboardStats }) {
  const { userStats, engagementStats } = stats;
  const notSubscribed = userStats.totalUsers - userStats.subscribedUsers;
  const activitiesPerUser = userStats.totalUsers > 0 ? engagementStats.totalActivities / userStats.totalUsers : 0;
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" value={formatCount(userStats.totalUsers)} />
        <StatCard label="Subscribed" value={formatCount(userStats.subscribedUsers)} />
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
