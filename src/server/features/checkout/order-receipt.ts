import { formatLabel, formatPrice } from '@shared/constants';
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';

export interface OrderReceiptLine {
  description: string;
  format: string;
  quantity: number;
  unitPrice: number;
  /** Charged for the line as listed (after any discount; without tax added on top). */
  amount: number;
  /** What came with this line into the library (the ebook with print, the PDF with the ebook). */
  included: string[];
}

export interface OrderReceiptInput {
  to: string;
  customerName: string;
  orderReference: string;
  lines: OrderReceiptLine[];
  subtotal: number;
  total: number;
  /** The shipping line (decision 0081), when the order shipped at a charge. */
  shipping?: { description: string; amount: number } | null;
  /** The tax in the total (decision 0080), and whether the prices included it or it was added. */
  tax?: number;
  pricesIncludeTax?: boolean;
  discountCode: string | null;
  purchaseDate: Date;
  publicUrl: URL;
}

const includedText = (formats: string[]) =>
  formats.map((f) => (f === 'pdf' ? 'the PDF edition' : `the ${formatLabel(f)}`)).join(' and ');

/** "2 x £16.99 = £33.98", or the price alone for one copy; a discount shows what was charged. */
function lineText(line: OrderReceiptLine): string {
  const list = line.unitPrice * line.quantity;
  const price = line.quantity > 1 ? `${line.quantity} x ${formatPrice(line.unitPrice)} = ${formatPrice(list)}` : formatPrice(list);
  const charged = line.amount === list ? price : `${price}, ${formatPrice(line.amount)} after discount`;
  const includes = line.included.length ? ` (includes ${includedText(line.included)})` : '';
  return `${line.description}: ${charged}${includes}`;
}

/** The receipt of a basket order: every line, the discount and the total, in one mail. */
export function orderReceiptMail(input: OrderReceiptInput): MailMessage {
  const libraryUrl = new URL('/profile#library', input.publicUrl).toString();
  const date = input.purchaseDate.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  const tax = input.tax ?? 0;
  const shipping = input.shipping?.amount ?? 0;
  // Each line's amount is as listed (tax added on top is not in it): the discount is what the code took off.
  const discount = input.subtotal - input.lines.reduce((sum, l) => sum + l.amount, 0);
  const discountLabel = input.discountCode ? `Discount (code ${input.discountCode})` : 'Discount';
  const totals = [
    ['Subtotal', formatPrice(input.subtotal)],
    ...(discount > 0 ? [[discountLabel, `-${formatPrice(discount)}`]] : []),
    ...(input.shipping && shipping > 0 ? [[input.shipping.description, formatPrice(shipping)]] : []),
    ...(tax > 0
      ? [
          ['Net', formatPrice(input.total - tax)],
          [input.pricesIncludeTax === false ? 'Tax' : 'Tax included', formatPrice(tax)],
        ]
      : []),
    ['Total paid', formatPrice(input.total)],
  ];
  const text = [
    `Hello ${input.customerName},`,
    '',
    'Thank you for your order.',
    '',
    `Order reference: ${input.orderReference}`,
    ...input.lines.map((l) => `- ${lineText(l)}`),
    ...totals.map(([label, value]) => `${label}: ${value}`),
    `Date: ${date}`,
    '',
    'Digital formats are waiting in your library; printed books will be packed and shipped to the address you gave at checkout. You can follow everything in your account:',
    libraryUrl,
    '',
    'Keep this email as your receipt.',
  ].join('\n');
  const html = `<p>Hello ${escapeMarkup(input.customerName)},</p>
<p>Thank you for your order <strong>${escapeMarkup(input.orderReference)}</strong>.</p>
<table cellpadding="4">
${input.lines.map((l) => `<tr><td>${escapeMarkup(lineText(l))}</td></tr>`).join('\n')}
${totals.map(([label, value]) => `<tr><td>${escapeMarkup(label)}: <strong>${escapeMarkup(value)}</strong></td></tr>`).join('\n')}
<tr><td>Date: ${escapeMarkup(date)}</td></tr>
</table>
<p><a href="${escapeMarkup(libraryUrl)}">Open your library</a></p>
<p>Keep this email as your receipt.</p>`;
  return { to: input.to, subject: `Your receipt for order ${input.orderReference}`, text, html, kind: 'receipt' };
}
