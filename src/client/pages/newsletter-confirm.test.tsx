import { fireEvent, screen } from '@testing-library/react';
import { json, mockFetch, renderAt } from '@client/test/render';
import NewsletterConfirmPage from './newsletter-confirm';

const TOKEN = 'tok_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_xyz';
const CONFIRMED = { status: 'confirmed', message: 'Your subscription to the Thriller Circle is confirmed. Thank you!' };
const confirmCalls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/api/newsletter/confirm'));

describe('/newsletter/confirm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opening the page only shows the button; pressing it posts the token and says it is confirmed', async () => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/newsletter/confirm': () => json(CONFIRMED),
    });
    renderAt(<NewsletterConfirmPage />, `/newsletter/confirm?token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Confirm your subscription' });
    expect(screen.getByRole('heading', { name: 'Confirm your subscription' })).toBeInTheDocument();
    expect(confirmCalls(fetch)).toHaveLength(0);
    fireEvent.click(button);
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed' })).toBeInTheDocument();
    expect(screen.getByText(CONFIRMED.message)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm your subscription' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    const [[, init]] = confirmCalls(fetch);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ token: TOKEN });
  });

  it('says "Already confirmed" when the subscription was confirmed before', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/newsletter/confirm': () => json({ status: 'already', message: 'Your subscription is already confirmed. There is nothing more to do.' }),
    });
    renderAt(<NewsletterConfirmPage />, `/newsletter/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm your subscription' }));
    expect(await screen.findByRole('heading', { name: 'Already confirmed' })).toBeInTheDocument();
    expect(screen.getByText('Your subscription is already confirmed. There is nothing more to do.')).toBeInTheDocument();
  });

  it.each([
    [404, 'This confirmation link is not valid. Please use the link from your most recent welcome email, or subscribe again.'],
    [400, 'This confirmation link has expired. Please subscribe again on the website to get a new one.'],
  ])('shows the server\'s message for a refused link (%i) and no button to press again', async (status, message) => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/newsletter/confirm': () => json({ code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message }, status),
    });
    renderAt(<NewsletterConfirmPage />, `/newsletter/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm your subscription' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link does not work');
    expect(alert).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Confirm your subscription' })).not.toBeInTheDocument();
  });

  it('keeps the button to try again when the website cannot be reached', async () => {
    let calls = 0;
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/newsletter/confirm': () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json(CONFIRMED);
      },
    });
    renderAt(<NewsletterConfirmPage />, `/newsletter/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm your subscription' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not reach the website. Please check your connection and try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm your subscription' }));
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed' })).toBeInTheDocument();
  });

  it('without a token says the link is not complete and offers no button', async () => {
    const fetch = mockFetch({});
    renderAt(<NewsletterConfirmPage />, '/newsletter/confirm');
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link is not complete. Please use the link from your welcome email.');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(confirmCalls(fetch)).toHaveLength(0);
  });
});
