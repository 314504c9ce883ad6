import type { DashboardStats } from '@shared/schemas/dashboard';
import { formatCount, formatMoney, formatPercent } from '@client/lib/format';
import { averageSale, FORMAT_LABELS, formatTotals, mostPopularFormat } from './figures';
import { Meter, Panel, StatCard } from './stat-card';
import { SalesOverTime } from './sales-over-time';

export function SalesTab({ stats }: { stats: DashboardStats }) {
  const { salesStats } = stats;
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Sales" value={formatCount(salesStats.totalSales)} />
        <StatCard label="Total Revenue" value={formatMoney(salesStats.totalRevenue)} />
        <StatCard label="Average per Sale" value={formatMoney(Math.round(averageSale(stats)))} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Format Popularity" description="Share of all copies sold">
          <div className="grid gap-4">
            {formatTotals(stats).map((f) => (
              <Meter key={f.format} label={FORMAT_LABELS[f.format]} value={`${formatCount(f.sales)} (${formatPercent(f.percent)})`} percent={f.percent} />
            ))}
          </div>
        </Panel>
        <Panel title="Book Performance">
          {salesStats.salesByBook.length === 0 ? (
            <p className="text-bone-300">No data available</p>
          ) : (
            <table className="w-full text-left text-sm tabular-nums">
              <thead className="text-bone-300">
                <tr>
                  <th scope="col" className="pb-2">Book</th>
                  <th scope="col" className="pb-2 text-right">Sales</th>
                  <th scope="col" className="pb-2 text-right">Revenue</th>
                  <th scope="col" className="pb-2 text-right">Most popular</th>
                </tr>
              </thead>
              <tbody>
                {salesStats.salesByBook.map((book) => {
                  const top = mostPopularFormat(book.salesByFormat);
                  return (
                    <tr key={book.id} className="border-t border-ink-800">
                      <th scope="row" className="py-2 font-medium text-bone-50">{book.title}</th>
                      <td className="py-2 text-right">{formatCount(book.totalSales)}</td>
                      <td className="py-2 text-right">{formatMoney(book.revenue)}</td>
                      <td className="py-2 text-right">{top ? FORMAT_LABELS[top] : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </Panel>
      </div>
      <SalesOverTime />
    </div>
  );
}
