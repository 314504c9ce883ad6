import { fireEvent, screen, waitFor } from '@testing-library/react';
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
});
