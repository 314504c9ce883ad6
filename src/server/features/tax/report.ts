/**
 * The tax report (decision 0080): what paid orders sold, net and tax, per quarter (UTC), tax country and
 * rate. Every line carries its own tax and rate: from the author's table, or from the Stripe session's
 * line items (a rate Stripe did not name shows as "Stripe"). An order taxed by Stripe before its lines
 * kept their tax (its lines' tax does not add up to its own) counts as one amount at the rate "Stripe".
 * A line refunded whole leaves the report.
 */
import { sql } from 'drizzle-orm';
import { formatPrice } from '@shared/constants';
import type { TaxReport } from '@shared/schemas/tax';
import type { DbOrTx } from '../../db/client';

const quarterOf = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY') || '-Q' || extract(quarter from ${column} at time zone 'UTC')::int`);

interface Row {
  quarter: string;
  country: string | null;
  rate: number | null;
  net: number;
  tax: number;
}

/** `from`/`to` are quarters such as 2026-Q4 (both included); without them, every quarter. */
export async function taxReport(db: DbOrTx, range: { from?: string; to?: string }): Promise<TaxReport> {
  const quarter = quarterOf('o.paid_at');
  const inRange = sql`(${range.from ?? null}::text is null or ${quarter} >= ${range.from ?? null}) and (${range.to ?? null}::text is null or ${quarter} <= ${range.to ?? null})`;
  const linesHoldTax = sql.raw(`o.tax = (select coalesce(sum(x.tax), 0) from order_lines x where x.order_id = o.id)`);
  const byLine = await db.execute(sql`
    select ${quarter} as quarter, o.tax_country as country, l.tax_rate as rate,
           sum(l.amount - l.tax)::int as net, sum(l.tax)::int as tax
    from order_lines l
    join orders o on o.id = l.order_id
    join checkout_sessions s on s.id = o.checkout_session_id
    left join purchases p on p.id = l.purchase_id
    where o.paid_at is not null and (s.provider <> 'stripe' or ${linesHoldTax}) and (p.id is null or p.status <> 'refunded') and ${inRange}
    group by 1, 2, 3`);
  const byOrder = await db.execute(sql`
    select ${quarter} as quarter, o.tax_country as country, null::int as rate,
           sum(o.total - o.tax)::int as net, sum(o.tax)::int as tax
    from orders o
    join checkout_sessions s on s.id = o.checkout_session_id
    where o.paid_at is not null and s.provider = 'stripe' and not ${linesHoldTax} and ${inRange}
    group by 1, 2`);
  // Both drivers answer execute() with { rows }.
  const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
  const rows = [...rowsOf(byLine), ...rowsOf(byOrder)].sort(
    (a, b) => a.quarter.localeCompare(b.quarter) || (a.country ?? '').localeCompare(b.country ?? '') || (a.rate ?? -1) - (b.rate ?? -1),
  );
  const net = rows.reduce((sum, r) => sum + Number(r.net), 0);
  const tax = rows.reduce((sum, r) => sum + Number(r.tax), 0);
  return {
    rows: rows.map((r) => ({
      quarter: r.quarter,
      country: r.country ?? '',
      rate: r.rate === null ? null : Number(r.rate) / 100,
      net: Number(r.net),
      tax: Number(r.tax),
      displayNet: formatPrice(Number(r.net)),
      displayTax: formatPrice(Number(r.tax)),
    })),
    net,
    tax,
    displayNet: formatPrice(net),
    displayTax: formatPrice(tax),
  };
}

/** The report's rows as spreadsheet cells: the header and one row per quarter, country and rate. */
export function taxReportTable(report: TaxReport): { header: string[]; rows: unknown[][] } {
  return {
    header: ['Quarter', 'Country', 'Rate (%)', 'Net', 'Tax'],
    rows: report.rows.map((r) => [r.quarter, r.country || 'Unknown', r.rate === null ? 'Stripe' : r.rate, (r.net / 100).toFixed(2), (r.tax / 100).toFixed(2)]),
  };
}
