import { fireEvent, screen, within } from '@testing-library/react';
import { NO_OPEN_TRACKING_NOTE } from '@shared/schemas/broadcasts';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminBroadcastEditorPage from './admin-broadcast-editor';

const broadcast = (fields: object = {}) => ({
  id: 7,
  subject: 'Chapter one',
  previewText: 'A first look',
  body: '<p>Hello</p>',
  audience: { kind: 'all' },
  postId: null,
  status: 'draft',
  sendAt: null,
  startedAt: null,
  finishedAt: null,
  updatedAt: '2026-11-21T12:00:00.000Z',
  audienceSize: 3,
  counts: { recipients: 0, sent: 0, waiting: 0, failed: 0, bounced: 0, suppressed: 0, unsubscribed: 0 },
  links: [],
  ...fields,
});

describe('/admin/newsletter broadcast editor', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the audience size before sending, and asks for a book when the audience needs one', async () => {
    const sizes: unknown[] = [];
    mockFetch({
      '/api/admin/broadcasts/7': () => json(broadcast()),
      '/api/books': () => json([{ id: 2, title: 'The Quiet Ledger' }]),
      '/api/csrf-token': () => json({ csrfToken: 'token' }),
      '/api/admin/broadcasts/audience-size': (_url, init) => {
        sizes.push(JSON.parse(String(init.body)));
        return json({ audienceSize: 12 });
      },
    });
    renderWithRouter([{ path: '/admin/newsletter/:id', element: <AdminBroadcastEditorPage mode="edit" /> }], '/admin/newsletter/7');
    expect(await screen.findByText('This audience is 12 confirmed subscribers.')).toBeInTheDocument();
    expect(sizes[0]).toEqual({ audience: { kind: 'all' } });
    expect(screen.getByRole('button', { name: 'Send now' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Audience'), { target: { value: 'owners' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Choose a book', { selector: 'p' })).toBeInTheDocument();
  });

  it('a sending broadcast shows its progress and counts, and cannot be edited or sent again', async () => {
    mockFetch({
      '/api/admin/broadcasts/7': () =>
        json(broadcast({ status: 'sending', audienceSize: 10, counts: { recipients: 10, sent: 4, waiting: 5, failed: 0, bounced: 1, suppressed: 0, unsubscribed: 0 } })),
      '/api/books': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'token' }),
      '/api/admin/broadcasts/audience-size': () => json({ audienceSize: 10 }),
    });
    renderWithRouter([{ path: '/admin/newsletter/:id', element: <AdminBroadcastEditorPage mode="edit" /> }], '/admin/newsletter/7');
    const bar = await screen.findByRole('progressbar', { name: 'Sending progress' });
    expect(bar).toHaveAttribute('value', '5');
    expect(bar).toHaveAttribute('max', '10');
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(screen.getByLabelText('Subject')).toBeDisabled();
  });

  it('a sent broadcast shows the clicks on each of its links, and says why opens are not counted', async () => {
    mockFetch({
      '/api/admin/broadcasts/7': () =>
        json(
          broadcast({
            status: 'sent',
            finishedAt: '2026-11-21T13:00:00.000Z',
            counts: { recipients: 3, sent: 3, waiting: 0, failed: 0, bounced: 0, suppressed: 0, unsubscribed: 0 },
            links: [
              { url: 'https://www.example.com/blog/first-look', clicks: 1200 },
              { url: 'https://shop.example.org/signed', clicks: 0 },
            ],
          }),
        ),
      '/api/books': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'token' }),
      '/api/admin/broadcasts/audience-size': () => json({ audienceSize: 3 }),
    });
    renderWithRouter([{ path: '/admin/newsletter/:id', element: <AdminBroadcastEditorPage mode="edit" /> }], '/admin/newsletter/7');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['LinkClicks', 'https://www.example.com/blog/first-look1,200', 'https://shop.example.org/signed0']);
    expect(screen.getByRole('heading', { name: 'Clicks per link' })).toBeInTheDocument();
    expect(screen.getByText(NO_OPEN_TRACKING_NOTE)).toBeInTheDocument();
  });

  it('a draft has no clicks to show yet, but says why opens are not counted', async () => {
    mockFetch({
      '/api/admin/broadcasts/7': () => json(broadcast()),
      '/api/books': () => json([]),
      '/api/csrf-token': () => json({ csrfToken: 'token' }),
      '/api/admin/broadcasts/audience-size': () => json({ audienceSize: 3 }),
    });
    renderWithRouter([{ path: '/admin/newsletter/:id', element: <AdminBroadcastEditorPage mode="edit" /> }], '/admin/newsletter/7');
    expect(
      await screen.findByText(
        'Opens are not counted. Counting them would mean hiding a tiny picture in every mail that reports back when it is shown: it tells us about a reader without asking, and it is not even reliable, as many mail programs load pictures in advance or not at all. Clicks are counted per link, never per reader.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Clicks per link' })).toBeNull();
  });
});
