import { formatLabel, formatPrice, isDigitalFormat } from '@shared/constants';
import { priceLines } from '@shared/order-words';
import { formatReleaseDate, preOrderNotice } from '@shared/schemas/pre-orders';
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';

export interface ReceiptInput {
  to: string;
  customerName: string;
  bookTitle: string;
  format: string;
  /** What was paid. */
  amount: number;
  /** The list price when a discount code lowered it; null or absent without a code. */
  originalAmount?: number | null;
  discountCode?: string | null;
  orderReference: string;
  purchaseDate: Date;
  publicUrl: URL;
  /** A gift: the recipient's name (the format goes to them, not to the buyer's library). */
  giftFor?: string | null;
  /** What came with the order into the buyer's library (the ebook with print, the PDF with the ebook). */
  included?: string[];
  /** A pre-order: the book's release date (its files, or its shipping, wait until then). */
  availableAt?: Date | null;
}

/** "Includes: the E-Book and the PDF edition, each with its own download in your library." */
function includedLine(formats: string[] | undefined): string | null {
  if (!formats?.length) return null;
  const names = formats.map((f) => (f === 'pdf' ? 'the PDF edition' : `the ${formatLabel(f)}`));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${list}, ${names.length === 1 ? 'with its' : 'each with its'} own download in your library`;
}

/** The purchase receipt, with a link to the buyer's library (where orders to ship are listed too). */
export function receiptMail(input: ReceiptInput): MailMessage {
  const libraryUrl = new URL('/profile#library', input.publicUrl).toString();
  const label = formatLabel(input.format);
  const price = priceLines(input.amount, input.originalAmount);
  const discountLabel = input.discountCode ? `Discount (code ${input.discountCode})` : 'Discount';
  const discount = price.discount ?? 'None';
  const date = input.purchaseDate.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  const digital = isDigitalFormat(input.format);
  const includes = includedLine(input.included);
  const preOrder = input.availableAt ? preOrderNotice(input.availableAt) : null;
  const next = input.giftFor
    ? `Your gift for ${input.giftFor} is on its way: we email them a link to claim it, at the time you chose. You can follow it under Your Orders:`
    : input.availableAt
    ? digital
      ? `Your ${label} will be in your library on ${formatReleaseDate(input.availableAt)}, and we will email you when it is ready to read and download:`
      : `Your ${label} will be shipped when the book comes out on ${formatReleaseDate(input.availableAt)}, to the address you gave at checkout. You can follow its status in your account:`
    : digital
    ? `Your ${label} is waiting in your library. Each digital format can be downloaded once, so download it on the device you want to keep it on:`
    : `Your ${label} order will be packed and shipped to the address you gave at checkout. You can follow its status in your account:`;
  const text = [
    `Hello ${input.customerName},`,
    '',
    `Thank you for buying ${input.bookTitle}.`,
    '',
    `Order reference: ${input.orderReference}`,
    `Item: ${input.bookTitle} (${label})`,
    ...(preOrder ? [preOrder] : []),
    `List price: ${price.listPrice}`,
    `${discountLabel}: ${discount}`,
    `Total paid: ${price.total}`,
    ...(includes ? [`Includes: ${includes}`] : []),
    `Date: ${date}`,
    '',
    next,
    libraryUrl,
    '',
    'Keep this email as your receipt.',
  ].join('\n');
  const html = `<p>Hello ${escapeMarkup(input.customerName)},</p>
<p>Thank you for buying <strong>${escapeMarkup(input.bookTitle)}</strong>.</p>
<table cellpadding="4">
<tr><td>Order reference</td><td><strong>${escapeMarkup(input.orderReference)}</strong></td></tr>
<tr><td>Item</td><td>${escapeMarkup(input.bookTitle)} (${escapeMarkup(label)})${preOrder ? `<br><strong>${escapeMarkup(preOrder)}</strong>` : ''}</td></tr>
<tr><td>List price</td><td>${escapeMarkup(price.listPrice)}</td></tr>
<tr><td>${escapeMarkup(discountLabel)}</td><td>${escapeMarkup(discount)}</td></tr>
<tr><td><strong>Total paid</strong></td><td><strong>${escapeMarkup(price.total)}</strong></td></tr>
${includes ? `<tr><td>Includes</td><td>${escapeMarkup(includes)}</td></tr>\n` : ''}<tr><td>Date</td><td>${escapeMarkup(date)}</td></tr>
</table>
<p>${escapeMarkup(next)}</p>
<p><a href="${escapeMarkup(libraryUrl)}">${digital ? 'Open your library' : 'View your order'}</a></p>
<p>Keep this email as your receipt.</p>`;
  return {
    to: input.to,
    subject: `Your receipt for ${input.bookTitle} (${label}) - ${input.orderReference}`,
    text,
    html,
    kind: 'receipt',
  };
}

export interface RefundMailInput {
  to: string;
  name: string;
  title: string;
  format: string;
  price: number;
  orderReference: string;
}

/** A refunded order: the money is on its way back, and what came with the order has left the library. */
export function refundMail(input: RefundMailInput): MailMessage {
  return {
    to: input.to,
    subject: `Your order ${input.orderReference} has been refunded`,
    text: [
      `Hello ${input.name},`,
      '',
      `Your order ${input.orderReference} (${input.title}, ${formatLabel(input.format)}) has been refunded: ${formatPrice(input.price)} is on its way back`,
      'to you and may take a few days to appear on your statement.',
      '',
      'Anything that came with the order (such as an included ebook or a gift) has been withdrawn from the library.',
    ].join('\n'),
    kind: 'refund',
  };
}

/** Part of an order given back (decision 0082): the order and everything in it stays with the reader. */
export function partialRefundMail(input: RefundMailInput): MailMessage {
  return {
    to: input.to,
    subject: `Part of your order ${input.orderReference} has been refunded`,
    text: [
      `Hello ${input.name},`,
      '',
      `${formatPrice(input.price)} of your order ${input.orderReference} (${input.title}, ${formatLabel(input.format)}) has been refunded and is on its`,
      'way back to you; it may take a few days to appear on your statement.',
      '',
      'The rest of the order is unchanged and stays in your library.',
    ].join('\n'),
    kind: 'partial-refund',
  };
}

/** A payment refunded at once because its discount code ran out meanwhile (decision 0050). */
export function discountRanOutMail(to: string): MailMessage {
  return {
    to,
    subject: 'Your payment has been refunded',
    text: [
      'Hello,',
      '',
      'The discount code on your order was used up by other readers just before your payment went through,',
      'so we could not complete the order. Your payment has been refunded in full; it may take a few days to',
      'appear on your statement. You are welcome to buy the book again.',
    ].join('\n'),
    kind: 'discount-ran-out',
  };
}

export interface ShippedMailInput {
  to: string;
  name: string;
  title: string;
  format: string;
  orderReference: string;
  tracking: { carrier: string; number: string; url: string | null } | null;
}

function trackingLines(tracking: ShippedMailInput['tracking']): string[] {
  if (!tracking) return [];
  return ['', `Carrier: ${tracking.carrier}`, `Tracking number: ${tracking.number}`, ...(tracking.url ? [`Track your parcel: ${tracking.url}`] : [])];
}

/** The buyer of a hardcover or paperback hears the day it leaves. */
export function orderShippedMail(input: ShippedMailInput): MailMessage {
  const item = formatLabel(input.format).toLowerCase();
  return {
    to: input.to,
    subject: `Your ${item} of ${input.title} is on its way`,
    text: [
      `Hello ${input.name},`,
      '',
      `Good news: your ${item} copy of ${input.title} (order ${input.orderReference}) has been dispatched today.`,
      ...trackingLines(input.tracking),
      '',
      'Thank you for reading.',
    ].join('\n'),
    kind: 'order-shipped',
  };
}
