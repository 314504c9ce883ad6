/**
 * The basket in the browser (decision 0073): a signed-in reader's lives on the server; a visitor's lives
 * in local storage, priced by the server, and joins the account's basket once they sign in.
 */
import { type Basket, type BasketItemRequest, isBundleRequest } from '@shared/schemas/basket';
import { type PurchaseFormat, isDigitalFormat } from '@shared/constants';
import type { CheckoutResponse } from '@shared/schemas/checkout';
import { ApiError, apiRequest } from '@client/lib/api-client';
import { setBasketCount } from '@client/lib/basket-count';
import * as safeStorage from '@client/lib/safe-storage';

const VISITOR_KEY = 'basket.visitor';
const COUNTRY_KEY = 'basket.country';

/** The destination the reader last picked for their printed books, kept across visits (and sign-in). */
export function readShippingCountry(): string {
  const stored = safeStorage.get(COUNTRY_KEY) ?? '';
  return /^[A-Z]{2}$/.test(stored) ? stored : '';
}

export function writeShippingCountry(country: string): void {
  if (country) safeStorage.set(COUNTRY_KEY, country);
  else safeStorage.remove(COUNTRY_KEY);
}

/** A format of a book with its quantity, or a bundle (one line of one, decision 0095). */
export type VisitorLine = { bookId: number; format: PurchaseFormat; quantity: number } | { bundleId: number };

const isVisitorLine = (l: unknown): l is VisitorLine => {
  if (!l || typeof l !== 'object') return false;
  const line = l as Record<string, unknown>;
  return typeof line.bundleId === 'number' || (typeof line.bookId === 'number' && typeof line.format === 'string');
};

export function readVisitorLines(): VisitorLine[] {
  try {
    const parsed = JSON.parse(safeStorage.get(VISITOR_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter(isVisitorLine) : [];
  } catch {
    return [];
  }
}

function writeVisitorLines(lines: VisitorLine[]): void {
  if (lines.length === 0) safeStorage.remove(VISITOR_KEY);
  else safeStorage.set(VISITOR_KEY, JSON.stringify(lines));
}

/** Answers the basket, and tells the header its count. */
function counted(basket: Basket): Basket {
  setBasketCount(basket.count);
  return basket;
}

async function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<Basket> {
  const res = await apiRequest(method, url, body);
  return counted((await res.json()) as Basket);
}

/** The visitor's lines as the server prices them (invalid ones are refused with the server's message). */
async function previewVisitor(lines: VisitorLine[], shippingCountry = ''): Promise<Basket> {
  return send('POST', '/api/basket/preview', shippingCountry ? { items: lines, shippingCountry } : { items: lines });
}

/** The basket priced by the server, with the code applied and the shipping and tax to the destination. */
export async function fetchBasket(signedIn: boolean, discountCode = '', shippingCountry = ''): Promise<Basket> {
  if (!signedIn) return previewVisitor(readVisitorLines(), shippingCountry);
  const params = new URLSearchParams();
  if (discountCode.trim()) params.set('discountCode', discountCode.trim());
  if (shippingCountry) params.set('shippingCountry', shippingCountry);
  const query = params.toString() ? `?${params.toString()}` : '';
  return send('GET', `/api/basket${query}`);
}

export async function addToBasket(signedIn: boolean, item: BasketItemRequest): Promise<Basket> {
  if (signedIn) return send('POST', '/api/basket/items', item);
  const lines = readVisitorLines();
  let next: VisitorLine[];
  if (isBundleRequest(item)) {
    next = lines.some((l) => 'bundleId' in l && l.bundleId === item.bundleId) ? lines : [...lines, { bundleId: item.bundleId }];
  } else {
    const same = lines.find((l) => 'bookId' in l && l.bookId === item.bookId && l.format === item.format);
    next =
      same && 'bookId' in same
        ? lines.map((l) => (l === same ? { ...same, quantity: isDigitalFormat(item.format) ? 1 : same.quantity + (item.quantity ?? 1) } : l))
        : [...lines, { bookId: item.bookId, format: item.format, quantity: item.quantity ?? 1 }];
  }
  // Priced (and its limits checked) by the server before it is kept.
  const basket = await previewVisitor(next);
  writeVisitorLines(next);
  return basket;
}

/** A line is an id on the server, or a book and format (or a bundle) in the visitor's browser. */
export type LineRef = { id: number } | { bookId: number; format: PurchaseFormat } | { bundleId: number };

const isLine = (l: VisitorLine, ref: Exclude<LineRef, { id: number }>) =>
  'bundleId' in ref ? 'bundleId' in l && l.bundleId === ref.bundleId : 'bookId' in l && l.bookId === ref.bookId && l.format === ref.format;

export async function setLineQuantity(line: LineRef, quantity: number): Promise<Basket> {
  if ('id' in line) return send('PATCH', `/api/basket/items/${line.id}`, { quantity });
  const next = readVisitorLines().map((l) => ('bookId' in l && isLine(l, line) ? { ...l, quantity } : l));
  const basket = await previewVisitor(next);
  writeVisitorLines(next);
  return basket;
}

export async function removeLine(line: LineRef): Promise<Basket> {
  if ('id' in line) return send('DELETE', `/api/basket/items/${line.id}`);
  const next = readVisitorLines().filter((l) => !isLine(l, line));
  writeVisitorLines(next);
  return previewVisitor(next);
}

/**
 * After sign-in: each line of the visitor's basket is added to the account's, under the same rules as any
 * add (a format already in the library is dropped). Returns the messages of lines that were refused.
 */
export async function joinVisitorBasket(): Promise<string[]> {
  const lines = readVisitorLines();
  const refused: string[] = [];
  for (const line of lines) {
    try {
      await send('POST', '/api/basket/items', line);
    } catch (error) {
      refused.push(error instanceof ApiError && error.serverMessage ? error.serverMessage : 'A line of your basket could not be kept');
    }
  }
  writeVisitorLines([]);
  return refused;
}

export async function checkoutBasket(input: { discountCode?: string; shippingCountry?: string }): Promise<CheckoutResponse> {
  const res = await apiRequest('POST', '/api/checkout/basket', input);
  return (await res.json()) as CheckoutResponse;
}
