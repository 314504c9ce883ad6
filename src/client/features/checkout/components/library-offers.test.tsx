import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Bundle } from '@shared/schemas/bundles';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import { LibraryOffers } from './library-offers';

const SIGNED_IN = { isAuthenticated: true, user: { id: 7, role: 'user' } };
const part = (format: 'ebook' | 'audiobook' | 'paperback', formatLabel: string, listPrice: number, owned: boolean) => ({
  bookId: 1,
  title: 'What We Owe the Dead',
  format,
  formatLabel,
  listPrice,
  owned,
});

/** The reader paid £9.99 for the e-book: the bundle sells them the audiobook for £10.00 instead of £14.99. */
const AUDIOBOOK_OFFER: Bundle = {
  id: 3,
  name: 'Read and listen',
  price: 1999,
  displayPrice: '£19.99',
  items: [part('ebook', 'E-Book', 999, true), part('audiobook', 'Audiobook', 1499, false)],
  yourPrice: 1000,
  displayYourPrice: '£10.00',
  completeYourSet: 'Complete your set: £10.00',
  ownedWhole: false,
  addOffer: 'Add the audiobook for £10.00',
};

/** A bundle the reader owns nothing of: no offer in the library. */
const NO_OFFER: Bundle = {
  ...AUDIOBOOK_OFFER,
  id: 5,
  name: 'The shelf edition',
  items: [part('ebook', 'E-Book', 999, false), part('paperback', 'Paperback', 1699, false)],
  yourPrice: 1999,
  displayYourPrice: '£19.99',
  completeYourSet: null,
  addOffer: null,
};

/** Owns the e-book and the audiobook: the paperback is what the offer adds. */
const PAPERBACK_OFFER: Bundle = {
  ...AUDIOBOOK_OFFER,
  id: 6,
  name: 'Every edition',
  price: 3499,
  displayPrice: '£34.99',
  items: [part('ebook', 'E-Book', 999, true), part('audiobook', 'Audiobook', 1499, true), part('paperback', 'Paperback', 1699, false)],
  yourPrice: 1001,
  displayYourPrice: '£10.01',
  completeYourSet: 'Complete your set: £10.01',
  addOffer: 'Add the paperback for £10.01',
};

function renderOffers(bundles: Bundle[], addItem: () => Response = () => json({ lines: [], count: 1 })) {
  const fetch = mockFetch({
    '/api/bundles': () => json({ bundles }),
    '/api/users/check-auth': () => json(SIGNED_IN),
    '/api/csrf-token': () => json({ csrfToken: 't' }),
    '/api/basket/items': addItem,
  });
  const rendered = renderWithRouter([
    {
      element: <><Outlet /><Toaster /></>,
      children: [
        { path: '/profile/library', element: <LibraryOffers /> },
        { path: '/basket', element: <p>basket page</p> },
      ],
    },
  ], '/profile/library');
  return { fetch, ...rendered };
}

describe('LibraryOffers', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('offers "Add the audiobook for £10.00" to an e-book owner, saying where the price comes from', async () => {
    renderOffers([AUDIOBOOK_OFFER, NO_OFFER]);
    const section = await screen.findByRole('region', { name: 'Complete your set' });
    const offers = within(section).getAllByRole('listitem');
    expect(offers).toHaveLength(1);
    const offer = within(screen.getByRole('listitem', { name: 'Add the audiobook for £10.00' }));
    expect(offer.getByText('With the Read and listen bundle, less what you paid for the e-book you own.')).toBeInTheDocument();
    expect(offer.getByRole('button', { name: 'Add to basket' })).toBeEnabled();
    expect(screen.queryByText(/The shelf edition/)).toBeNull();
  });

  it('names every format the reader owns in the offer of the one they lack', async () => {
    renderOffers([PAPERBACK_OFFER]);
    const offer = within(await screen.findByRole('listitem', { name: 'Add the paperback for £10.01' }));
    expect(offer.getByText('With the Every edition bundle, less what you paid for the e-book and the audiobook you own.')).toBeInTheDocument();
  });

  it('shows nothing when no bundle makes a format cheaper', async () => {
    const { queryClient } = renderOffers([NO_OFFER]);
    // Answered, and still nothing.
    await waitFor(() => expect(queryClient.getQueryState(['/api/bundles'])?.status).toBe('success'));
    expect(screen.queryByRole('region', { name: 'Complete your set' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to basket' })).toBeNull();
  });

  it('"Add to basket" puts the bundle in the basket and takes the reader there', async () => {
    const { fetch, router } = renderOffers([AUDIOBOOK_OFFER]);
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Add the audiobook for £10.00' })).getByRole('button', { name: 'Add to basket' }));
    expect(await screen.findByText('basket page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/basket');
    const sent = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/items'));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ bundleId: 3 });
    expect(screen.getByText('Added to your basket')).toBeInTheDocument();
    expect(screen.getByText('Read and listen. Items in your basket: 1.')).toBeInTheDocument();
  });

  it('a refusal keeps the reader in the library with the reason', async () => {
    const { router } = renderOffers([AUDIOBOOK_OFFER], () =>
      json({ code: 'ALREADY_OWNED', message: 'Every format of this bundle is already in your library' }, 409),
    );
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Add the audiobook for £10.00' })).getByRole('button', { name: 'Add to basket' }));
    expect(await screen.findByText('Not added to your basket')).toBeInTheDocument();
    expect(screen.getByText('Every format of this bundle is already in your library')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile/library');
  });
});
