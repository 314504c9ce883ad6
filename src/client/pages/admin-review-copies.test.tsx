import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminReviewCopiesPage from './admin-review-copies';

const CAMPAIGN = {
  id: 2, bookId: 7, bookTitle: 'The First Case', format: 'ebook', formatLabel: 'E-Book', slug: 'early-readers',
  opensAt: '2026-11-01T00:00:00.000Z', closesAt: '2026-12-31T00:00:00.000Z', copies: 10, question: 'Q?', autoApprove: false,
  reminderDays: 7, state: 'open', applications: 2, pending: 2, approved: 0, reviewed: 0, withdrawn: 0, withdrawnAt: null,
};
const app = (id: number, name: string, kept: string[] = []) => ({
  id, name, email: `${name.toLowerCase()}@example.com`, reviewsWhere: 'My blog', answer: 'Night Harbour', profileLinks: [],
  status: 'pending', appliedAt: '2026-11-20T00:00:00.000Z', decidedAt: null, reviewLinks: [], remindersSent: 0, keptWithoutReview: kept,
});

describe('/admin/review-copies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('flags an applicant who kept a copy without a review and approves the selected applications in one request', async () => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/admin/review-copies': () => json([CAMPAIGN]),
      '/api/admin/review-copies/2/applications': () => json([app(5, 'Ada'), app(6, 'Bea', ['Night Harbour'])]),
      '/api/admin/review-copies/2/decide': () => json({ approved: 2, declined: 0, skipped: 0, message: '2 approved.' }),
    });
    renderWithRouter([{ path: '/admin/review-copies', element: <AdminReviewCopiesPage /> }], '/admin/review-copies');
    expect(await screen.findByText('Kept a review copy without posting a review: Night Harbour')).toBeInTheDocument();
    expect(screen.getByText('0 of 10 copies given · 2 waiting · 0 reviewed · 0 withdrawn')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Select Ada'));
    fireEvent.click(screen.getByLabelText('Select Bea'));
    fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/decide'))).toBe(true));
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/decide'))!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ ids: [5, 6], decision: 'approve' });
  });

  const BOOKS = [
    { id: 7, title: 'The First Case' },
    { id: 9, title: 'Night Harbour' },
  ];
  const bodyOf = (fetch: ReturnType<typeof mockFetch>, method: string) => {
    const call = fetch.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === method);
    return call ? (JSON.parse(String(call[1]?.body)) as Record<string, unknown>) : undefined;
  };
  const renderPage = (campaigns: unknown[], saved: unknown[]) => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/books': () => json(BOOKS),
      '/api/admin/review-copies': (_url, init) => json(init.method === 'POST' ? saved : campaigns, init.method === 'POST' ? 201 : 200),
      '/api/admin/review-copies/2': () => json(saved),
      '/api/admin/review-copies/2/applications': () => json([]),
    });
    renderWithRouter([{ path: '/admin/review-copies', element: <><AdminReviewCopiesPage /><Toaster /></> }], '/admin/review-copies');
    return fetch;
  };

  it('creates a campaign from the "New campaign" form, with dates in the admin\'s time and whole numbers', async () => {
    const created = { ...CAMPAIGN, id: 3, bookId: 9, bookTitle: 'Night Harbour', slug: 'night-harbour', autoApprove: true, reminderDays: 5, pending: 0, applications: 0 };
    const fetch = renderPage([], [created]);
    await screen.findByText('No review-copy campaigns yet.');
    fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    const form = await screen.findByRole('form', { name: 'New campaign' });
    fireEvent.change(within(form).getByLabelText('Book'), { target: { value: '9' } });
    expect(within(form).getByLabelText('Address: /review-copies/…')).toHaveValue('night-harbour');
    fireEvent.change(within(form).getByLabelText('Format'), { target: { value: 'pdf' } });
    fireEvent.change(within(form).getByLabelText('Opens'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.change(within(form).getByLabelText('Closes'), { target: { value: '2027-01-15T18:30' } });
    fireEvent.change(within(form).getByLabelText('Copies'), { target: { value: '25' } });
    fireEvent.change(within(form).getByLabelText('Remind every (days)'), { target: { value: '5' } });
    fireEvent.change(within(form).getByLabelText('Question to applicants'), { target: { value: 'Which thriller did you review last?' } });
    fireEvent.click(within(form).getByLabelText('Approved automatically'));
    fireEvent.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText('Applications are taken at /review-copies/night-harbour.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST')).toEqual({
      bookId: 9,
      format: 'pdf',
      slug: 'night-harbour',
      opensAt: new Date('2026-12-01T09:00').toISOString(),
      closesAt: new Date('2027-01-15T18:30').toISOString(),
      copies: 25,
      question: 'Which thriller did you review last?',
      autoApprove: true,
      reminderDays: 5,
    });
    expect(screen.queryByRole('form', { name: 'New campaign' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Night Harbour (E-Book)' })).toBeInTheDocument();
  });

  it('edits a campaign from its own form, filled with what it holds', async () => {
    const fetch = renderPage([CAMPAIGN], [{ ...CAMPAIGN, copies: 40 }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit /review-copies/early-readers' }));
    const form = await screen.findByRole('form', { name: 'Edit /review-copies/early-readers' });
    expect(within(form).getByLabelText('Book')).toHaveValue('7');
    expect(within(form).getByLabelText('Opens')).toHaveValue(toLocal('2026-11-01T00:00:00.000Z'));
    expect(within(form).getByLabelText('Question to applicants')).toHaveValue('Q?');
    expect(within(form).getByLabelText('Approved by hand')).toBeChecked();
    fireEvent.change(within(form).getByLabelText('Copies'), { target: { value: '40' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('0 of 40 copies given · 2 waiting · 0 reviewed · 0 withdrawn')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT')).toEqual({
      bookId: 7, format: 'ebook', slug: 'early-readers', opensAt: '2026-11-01T00:00:00.000Z', closesAt: '2026-12-31T00:00:00.000Z',
      copies: 40, question: 'Q?', autoApprove: false, reminderDays: 7,
    });
    expect(screen.queryByRole('form', { name: 'Edit /review-copies/early-readers' })).not.toBeInTheDocument();
  });

  it('names each wrong field with the shared schema\'s message and sends nothing', async () => {
    const fetch = renderPage([], []);
    fireEvent.click(await screen.findByRole('button', { name: 'New campaign' }));
    const form = await screen.findByRole('form', { name: 'New campaign' });
    fireEvent.change(within(form).getByLabelText('Opens'), { target: { value: '2026-12-10T09:00' } });
    fireEvent.change(within(form).getByLabelText('Closes'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.change(within(form).getByLabelText('Copies'), { target: { value: '0' } });
    fireEvent.change(within(form).getByLabelText('Remind every (days)'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    await waitFor(() => expect(within(form).getAllByRole('alert').length).toBeGreaterThan(0));
    expect(within(form).getAllByRole('alert').map((a) => a.textContent)).toEqual([
      REVIEW_COPY_MESSAGES.bookId,
      REVIEW_COPY_MESSAGES.slug,
      REVIEW_COPY_MESSAGES.copies,
      REVIEW_COPY_MESSAGES.reminderDays,
      REVIEW_COPY_MESSAGES.question,
    ]);
    expect(within(form).getByLabelText('Copies')).toHaveAttribute('aria-invalid', 'true');
    // The order of the dates is checked once every field holds a value of its own.
    fireEvent.change(within(form).getByLabelText('Book'), { target: { value: '7' } });
    fireEvent.change(within(form).getByLabelText('Copies'), { target: { value: '3' } });
    fireEvent.change(within(form).getByLabelText('Remind every (days)'), { target: { value: '7' } });
    fireEvent.change(within(form).getByLabelText('Question to applicants'), { target: { value: 'Why this book?' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Campaign' }));
    await waitFor(() => expect(within(form).getAllByRole('alert').map((a) => a.textContent)).toEqual([REVIEW_COPY_MESSAGES.closesBeforeOpen]));
    expect(within(form).getByLabelText('Closes')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Address: /review-copies/…')).toHaveValue('the-first-case');
    expect(bodyOf(fetch, 'POST')).toBeUndefined();
  });

  it('shows the server\'s answer for a taken address beside the address box', async () => {
    const fetch = renderPage([CAMPAIGN], []);
    fetch.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/api/admin/review-copies/2' && init.method === 'PUT')
        return json({ message: REVIEW_COPY_MESSAGES.slugTaken, code: 'CONFLICT', fields: { slug: REVIEW_COPY_MESSAGES.slugTaken } }, 409);
      if (path === '/api/csrf-token') return json({ csrfToken: 't' });
      if (path === '/api/books') return json(BOOKS);
      if (path === '/api/admin/review-copies') return json([CAMPAIGN]);
      return json([]);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit /review-copies/early-readers' }));
    const form = await screen.findByRole('form', { name: 'Edit /review-copies/early-readers' });
    fireEvent.change(within(form).getByLabelText('Address: /review-copies/…'), { target: { value: 'taken' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await within(form).findByText(REVIEW_COPY_MESSAGES.slugTaken)).toBeInTheDocument();
    expect(within(form).getByLabelText('Address: /review-copies/…')).toHaveAttribute('aria-invalid', 'true');
  });
});

const pad = (n: number) => String(n).padStart(2, '0');
function toLocal(iso: string) {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
