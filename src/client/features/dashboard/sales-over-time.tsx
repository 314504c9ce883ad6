import { useState } from 'react';
import { SALES_RANGE_LABELS, SALES_RANGES, type SalesRange, type SalesSeries } from '@shared/schemas/dashboard';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { countOf } from '@client/lib/plural';
import { useSalesSeries } from './api';
import { formatCount, formatMoney, formatPercent, share } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';
import { BarChart } from './bar-chart';
import { FORMAT_LABELS } from './figures';
import { Meter, Panel } from './stat-card';

function periodLabel(period: string, bucket: SalesSeries['bucket']): string {
  const date = new Date(bucket === 'day' ? `${period}T00:00:00Z` : `${period}-01T00:00:00Z`);
  return date.toLocaleDateString('en-GB', bucket === 'day' ? { day: 'numeric', month: 'short', timeZone: 'UTC' } : { month: 'short', year: '2-digit', timeZone: 'UTC' });
}

/** Sales and revenue over the chosen range, and how they split by format. */
export function SalesOverTime() {
  const [range, setRange] = useState<SalesRange>('30d');
  const query = useSalesSeries(range);
  const series = query.data;
  const rangeLabel = SALES_RANGE_LABELS[range].toLowerCase();

  const points = series?.points.map((p) => ({ ...p, label: periodLabel(p.period, series.bucket) })) ?? [];
  const totalSales = points.reduce((n, p) => n + p.sales, 0);
  const totalRevenue = points.reduce((n, p) => n + p.revenue, 0);
  const unit = series?.bucket === 'month' ? 'month' : 'day';

  return (
    <div className="grid gap-6">
      <div role="group" aria-label="Time range" className="inline-flex w-fit gap-1 rounded-lg border border-ink-700 bg-ink-900 p-1">
        {SALES_RANGES.map((r) => (
          <Button key={r} size="sm" variant={r === range ? 'primary' : 'ghost'} aria-pressed={r === range} onClick={() => setRange(r)}>
            {SALES_RANGE_LABELS[r]}
          </Button>
        ))}
      </div>
      {query.isPending ? (
        <Skeleton className="h-56" />
      ) : query.isError ? (
        <p role="alert" className="text-bone-200">
          Failed to load sales over time: {errorText(query.error)}
        </p>
      ) : (
        <>
          <div className="grid gap-6 lg:grid-cols-2">
            <Panel title="Sales over time" description={`${countOf(totalSales, 'sale')}, ${rangeLabel}`}>
              <BarChart
                data={points.map((p) => ({ label: p.label, value: p.sales }))}
                format={formatCount}
                summary={`Sales per ${unit}, ${rangeLabel}: ${formatCount(totalSales)} in total.`}
              />
            </Panel>
            <Panel title="Revenue over time" description={`${formatMoney(totalRevenue)}, ${rangeLabel}`}>
              <BarChart
                data={points.map((p) => ({ label: p.label, value: p.revenue }))}
                format={formatMoney}
                summary={`Revenue per ${unit}, ${rangeLabel}: ${formatMoney(totalRevenue)} in total.`}
              />
            </Panel>
          </div>
          <details className="rounded-lg border border-ink-700 bg-ink-900/60 p-4 text-sm">
            <summary className="cursor-pointer text-bone-100">Show sales over time as a table</summary>
            <div className="mt-3 max-h-80 overflow-auto">
              <table className="w-full text-left tabular-nums">
                <caption className="sr-only">Sales and revenue per {unit}, {rangeLabel}</caption>
                <thead className="text-bone-300">
                  <tr>
                    <th scope="col" className="py-1">{unit === 'day' ? 'Day' : 'Month'}</th>
                    <th scope="col" className="py-1 text-right">Sales</th>
                    <th scope="col" className="py-1 text-right">Revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {points.map((p) => (
                    <tr key={p.period} className="border-t border-ink-800">
                      <th scope="row" className="py-1 font-normal">{p.label}</th>
                      <td className="py-1 text-right">{formatCount(p.sales)}</td>
                      <td className="py-1 text-right">{formatMoney(p.revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
          <Panel title="Format split" description={`Share of sales by format, ${rangeLabel}`}>
            <div className="grid gap-4" aria-label="Format split" role="list">
              {series!.formats.map((f) => (
                <div role="listitem" key={f.format}>
                  <Meter
                    label={FORMAT_LABELS[f.format]}
                    value={`${countOf(f.sales, 'sale')} · ${formatPercent(share(f.sales, totalSales))} · ${formatMoney(f.revenue)}`}
                    percent={share(f.sales, totalSales)}
                  />
                </div>
              ))}
            </div>
          </Panel>
        </>
      )}
    </div>
  );
}
