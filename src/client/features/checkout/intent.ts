/**
 * The purchase intent (docs/PRODUCT.md, Purchase intent): a visitor who clicks Buy while signed out is
 * sent to log in, and the format they chose waits in local storage for 10 minutes.
 */
import { PURCHASE_FORMATS, PURCHASE_INTENT_LIFETIME_MS, STORAGE_KEYS } from '@shared/constants';
import type { PurchaseFormat } from '@shared/constants';
import { toast } from '@client/components/ui/toast-store';
import { fetchBookFormats, fetchFeaturedBook, fetchFormatPrices } from './api';
import { SLUG_PATTERN } from '@shared/slug';
import { checkoutPath } from '@client/lib/checkout';
import * as safeStorage from '@client/lib/safe-storage';

export { checkoutPath } from '@client/lib/checkout';

export interface PurchaseIntent {
  format: PurchaseFormat;
  returnToPurchase: boolean;
  timestamp: number;
  /** The discount code the visitor typed before being sent to log in, carried back to checkout. */
  discountCode?: string;
  /** The catalogue book whose page the Buy was pressed on; absent for the featured book (the home page). */
  slug?: string;
}

/** Delay between the "Ready to complete your purchase" toast and the checkout redirect. */
export const RESUME_REDIRECT_DELAY_MS = 1000;

export function savePurchaseIntent(format: PurchaseFormat, now = Date.now(), discountCode?: string | null, slug?: string): void {
  const intent: PurchaseIntent = { format, returnToPurchase: true, timestamp: now, ...(discountCode ? { discountCode } : {}), ...(slug ? { slug } : {}) };
  safeStorage.set(STORAGE_KEYS.purchaseIntent, JSON.stringify(intent));
}

export function clearPurchaseIntent(): void {
  safeStorage.remove(STORAGE_KEYS.purchaseIntent);
}

function readRaw(): string | null {
  return safeStorage.get(STORAGE_KEYS.purchaseIntent);
}

/** Whether any intent is stored (the profile page's 1-second toast asks this). */
export function hasPurchaseIntent(): boolean {
  return readRaw() !== null;
}

/** The stored intent if it is well-formed and younger than 10 minutes; anything else is discarded. */
export function readPurchaseIntent(now = Date.now()): PurchaseIntent | null {
  const raw = readRaw();
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw) as Partial<PurchaseIntent>;
    const fresh =
      typeof data.timestamp === 'number' && now - data.timestamp >= 0 && now - data.timestamp < PURCHASE_INTENT_LIFETIME_MS;
    if (fresh && typeof data.format === 'string' && (PURCHASE_FORMATS as readonly string[]).includes(data.format)) {
      const discountCode = typeof data.discountCode === 'string' && data.discountCode.trim() ? data.discountCode.trim() : undefined;
      const slug = typeof data.slug === 'string' && SLUG_PATTERN.test(data.slug) ? data.slug : undefined;
      return {
        format: data.format as PurchaseFormat,
        returnToPurchase: data.returnToPurchase !== false,
        timestamp: data.timestamp!,
        ...(discountCode ? { discountCode } : {}),
        ...(slug ? { slug } : {}),
      };
    }
  } catch {
    // Unparsable: discarded below.
  }
  clearPurchaseIntent();
  return null;
}

/**
 * Called by the login page after a successful sign-in with returnTo=purchase (docs/PRODUCT.md, Purchase intent).
 * It always navigates: to /checkout one second after the "Ready to complete your purchase" toast, or to
 * /#purchase when the intent is missing, stale or unparsable, or the book or price cannot be found.
 * Resolves true when the purchase resumed (checkout), false when the reader was sent to /#purchase.
 */
export async function resumePurchaseAfterLogin(
  navigate: (to: string) => void,
  options: { now?: number; delayMs?: number } = {},
): Promise<boolean> {
  const intent = readPurchaseIntent(options.now);
  if (!intent) {
    clearPurchaseIntent();
    navigate('/#purchase');
    return false;
  }
  const [book, prices] = intent.slug
    ? await fetchBookFormats(intent.slug).then(
        (r) => [r.book, Object.fromEntries(r.formats.map((f) => [f.id, f.price]))] as const,
        () => [null, {} as Record<string, number>] as const,
      )
    : await Promise.all([fetchFeaturedBook(), fetchFormatPrices().catch(() => ({}) as Record<string, number>)]);
  const amount = prices[intent.format];
  clearPurchaseIntent();
  const section = intent.slug ? `/books/${intent.slug}#purchase` : '/#purchase';
  if (!book || !amount || amount <= 0) {
    navigate(section);
    return false;
  }
  toast({ title: 'Ready to complete your purchase', description: 'Redirecting to checkout...' });
  const target = checkoutPath({ amount, title: book.title, format: intent.format, bookId: book.id, discountCode: intent.discountCode });
  await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? RESUME_REDIRECT_DELAY_MS));
  navigate(target);
  return true;
}
