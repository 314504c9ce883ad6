import { act, renderHook } from '@testing-library/react';
import { PURCHASE_INTENT_LIFETIME_MS, STORAGE_KEYS } from '@shared/constants';
import { resetToastStore, useToast } from '@client/components/ui/toast-store';
import { json, mockFetch } from '@client/test/render';
import { readPurchaseIntent, resumePurchaseAfterLogin, savePurchaseIntent } from './intent';

const FORMATS = {
  book: { id: 3, title: 'What We Owe the Dead' },
  formats: [{ id: 'ebook', title: 'E-Book', price: 999, currency: 'GBP', displayPrice: '£9.99', features: [], buttonText: 'Buy' }],
};

function mockStore(book: unknown = { id: 3, title: 'What We Owe the Dead' }) {
  return mockFetch({
    '/api/books/featured': () => (book ? json(book) : json({ message: 'none' }, 404)),
    '/api/store/formats': () => json(FORMATS),
  });
}

describe('purchase intent', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('is read back while younger than 10 minutes, then discarded when older or unparsable', () => {
    const now = Date.now();
    savePurchaseIntent('audiobook', now);
    expect(readPurchaseIntent(now + PURCHASE_INTENT_LIFETIME_MS - 1)).toMatchObject({ format: 'audiobook', returnToPurchase: true });
    expect(readPurchaseIntent(now + PURCHASE_INTENT_LIFETIME_MS)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)).toBeNull();

    window.localStorage.setItem(STORAGE_KEYS.purchaseIntent, '{not json');
    expect(readPurchaseIntent()).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)).toBeNull();

    window.localStorage.setItem(STORAGE_KEYS.purchaseIntent, JSON.stringify({ format: 'scroll', timestamp: Date.now() }));
    expect(readPurchaseIntent()).toBeNull();
  });

  it('resumes a fresh intent: toast, intent removed, /checkout after 1 second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockStore();
      savePurchaseIntent('ebook');
      const navigate = vi.fn();
      const toasts = renderHook(() => useToast());
      const done = resumePurchaseAfterLogin(navigate);
      await vi.waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)).toBeNull());
      expect(toasts.result.current.toasts.map((t) => [t.title, t.description])).toEqual([
        ['Ready to complete your purchase', 'Redirecting to checkout...'],
      ]);
      expect(navigate).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1000);
      expect(await done).toBe(true);
      expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/checkout\?amount=999&title=What\+We\+Owe\+the\+Dead&format=ebook&bookId=3&intent=[0-9a-f]{32}$/));
    } finally {
      vi.useRealTimers();
    }
  });

  it('carries a discount code typed before logging in back to checkout', async () => {
    mockStore();
    savePurchaseIntent('ebook', Date.now(), 'LAUNCH20');
    expect(readPurchaseIntent()).toMatchObject({ format: 'ebook', discountCode: 'LAUNCH20' });
    const navigate = vi.fn();
    expect(await resumePurchaseAfterLogin(navigate, { delayMs: 0 })).toBe(true);
    expect(navigate).toHaveBeenCalledWith(
      expect.stringMatching(/^\/checkout\?amount=999&title=What\+We\+Owe\+the\+Dead&format=ebook&bookId=3&discountCode=LAUNCH20&intent=[0-9a-f]{32}$/),
    );
  });

  it('resumes the purchase of the catalogue book whose page the Buy was pressed on, not the featured one', async () => {
    mockFetch({
      '/api/catalogue/the-salt-road/formats': () =>
        json({ book: { id: 7, title: 'The Salt Road' }, formats: [{ id: 'hardcover', title: 'Hardcover', price: 2599, currency: 'GBP', displayPrice: '£25.99', features: [], buttonText: 'Buy' }] }),
    });
    savePurchaseIntent('hardcover', Date.now(), null, 'the-salt-road');
    expect(readPurchaseIntent()).toMatchObject({ format: 'hardcover', slug: 'the-salt-road' });
    const navigate = vi.fn();
    expect(await resumePurchaseAfterLogin(navigate, { delayMs: 0 })).toBe(true);
    expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/checkout\?amount=2599&title=The\+Salt\+Road&format=hardcover&bookId=7&intent=[0-9a-f]{32}$/));

    // A book gone from the catalogue sends the reader back to its page's purchase section.
    mockFetch({});
    savePurchaseIntent('hardcover', Date.now(), null, 'the-salt-road');
    const back = vi.fn();
    expect(await resumePurchaseAfterLogin(back, { delayMs: 0 })).toBe(false);
    expect(back).toHaveBeenCalledWith('/books/the-salt-road#purchase');
  });

  it('sends the reader to /#purchase when the intent is stale or the book is missing', async () => {
    mockStore();
    savePurchaseIntent('ebook', Date.now() - PURCHASE_INTENT_LIFETIME_MS - 1);
    const navigate = vi.fn();
    expect(await resumePurchaseAfterLogin(navigate)).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/#purchase');

    mockStore(null);
    savePurchaseIntent('ebook');
    const navigate2 = vi.fn();
    expect(await resumePurchaseAfterLogin(navigate2, { delayMs: 0 })).toBe(false);
    expect(navigate2).toHaveBeenCalledWith('/#purchase');
    expect(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)).toBeNull();
  });
});
