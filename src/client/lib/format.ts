/** Numbers and dates as the admin and the dashboard show them (docs/PRODUCT.md, Dashboard): thousands by commas, one-decimal percentages, £ from minor units, en-GB dates. */
import { CURRENCY_SYMBOL } from '@shared/constants';

const integer = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const money = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatCount = (n: number) => integer.format(n);

/** 1234.5 -> "1,234.5%"; a share of nothing is 0.0%. */
export const formatPercent = (n: number) => `${oneDecimal.format(Number.isFinite(n) ? n : 0)}%`;

export const formatDecimal = (n: number) => oneDecimal.format(Number.isFinite(n) ? n : 0);

/** Revenue arrives in minor units; the page divides by 100. 123456 -> "£1,234.56". */
export const formatMoney = (minorUnits: number) => `${CURRENCY_SYMBOL}${money.format(minorUnits / 100)}`;

/** share(3, 4) -> 75; share(x, 0) -> 0. */
export const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

/** "Data as of" date in the en-GB long form: "21 November 2026". */
export const formatLongDate = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export const formatShortDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
