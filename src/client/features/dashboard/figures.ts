/** Figures derived from the statistics answer (docs/PRODUCT.md, Dashboard), in one place so every tab computes them the same way. */
import { PURCHASE_FORMATS, type PurchaseFormat } from '@shared/constants';
import type { DashboardStats } from '@shared/schemas/dashboard';
import { share } from '@client/lib/format';

export const FORMAT_LABELS: Record<PurchaseFormat, string> = {
  hardcover: 'Hardcover',
  paperback: 'Paperback',
  ebook: 'E-Book',
  audiobook: 'Audiobook',
};

export function formatTotals(stats: DashboardStats): Array<{ format: PurchaseFormat; sales: number; percent: number }> {
  const totals = PURCHASE_FORMATS.map((format) => ({
    format,
    sales: stats.salesStats.salesByBook.reduce((n, b) => n + b.salesByFormat[format], 0),
  }));
  const all = totals.reduce((n, t) => n + t.sales, 0);
  return totals.map((t) => ({ ...t, percent: share(t.sales, all) }));
}

/** The format a book sold most of; null when it has not sold. Ties go to the first in format order. */
export function mostPopularFormat(salesByFormat: Record<PurchaseFormat, number>): PurchaseFormat | null {
  let best: PurchaseFormat | null = null;
  for (const format of PURCHASE_FORMATS) {
    if (salesByFormat[format] > 0 && (best === null || salesByFormat[format] > salesByFormat[best])) best = format;
  }
  return best;
}

export const averageSale = (stats: DashboardStats) =>
  stats.salesStats.totalSales > 0 ? stats.salesStats.totalRevenue / stats.salesStats.totalSales : 0;
