import { REPORT_TOO_LONG } from '@shared/schemas/common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DashboardStats } from '@shared/schemas/dashboard';
import DashboardPage from '@client/pages/dashboard';
import { json, mockFetch, renderAt } from '@client/test/render';

const stats: DashboardStats = {
  userStats: { totalUsers: 1234, subscribedUsers: 456, percentSubscribed: 36.95299837925446, newsletterSubscribers: 789 },
  salesStats: {
    totalSales: 2000,
    totalRevenue: 2998701,
    salesByBook: [
      {
        id: 1,
        title: 'What We Owe the Dead',
        totalSales: 1500,
        revenue: 2498700,
        salesByFormat: { hardcover: 300, paperback: 200, ebook: 700, audiobook: 300 },
      },
      { id: 2, title: 'The Quiet Inheritance', totalSales: 500, revenue: 500001, salesByFormat: { hardcover: 0, paperback: 0, ebook: 500, audiobook: 0 } },
    ],
  },
  contentStats: { totalBooks: 2, totalReviews: 3, avgRating: 4.83, publishedPosts: 5, totalPosts: 8 },
  engagementStats: { totalActivities: 2468, totalDownloads: 1012 },
};

const series = {
  range: '30d',
  bucket: 'day',
  points: [
    { period: '2026-11-20', sales: 2, revenue: 4998 },
    { period: '2026-11-21', sales: 1, revenue: 999 },
  ],
  formats: [
    { format: 'hardcover', sales: 2, revenue: 4998 },
    { format: 'paperback', sales: 0, revenue: 0 },
    { format: 'ebook', sales: 1, revenue: 999 },
    { format: 'audiobook', sales: 0, revenue: 0 },
  ],
};

function card(label: string) {
  return within(screen.getByRole('group', { name: label }));
}

describe('Author Dashboard page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the overview figures, thousands separated, with "Data as of" in en-GB long form', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(stats) });
    renderAt(<DashboardPage />, '/dashboard');
    expect(await screen.findByText('Data as of 21 November 2026')).toBeInTheDocument();
    await screen.findByRole('tab', { name: 'Overview' });
    expect(card('Users').getByText('1,234')).toBeInTheDocument();
    expect(card('Users').getByText('456 subscribed (37.0%)')).toBeInTheDocument();
    expect(card('Sales').getByText('2,000')).toBeInTheDocument();
    // Revenue arrives in minor units: 2,998,701 pence is £29,987.01.
    expect(card('Sales').getByText('£29,987.01 revenue')).toBeInTheDocument();
    expect(card('Books & Reviews').getByText('3 reviews, average 4.8')).toBeInTheDocument();
    expect(card('Blog Posts').getByText('5 / 8')).toBeInTheDocument();
    expect(screen.getByText('1,500 sales · £24,987.00')).toBeInTheDocument();
    expect(screen.getByText('2,468')).toBeInTheDocument();
    expect(screen.getByText('1,012')).toBeInTheDocument();
  });

  it('shows the sales tab: totals, average per sale, format popularity and the most popular format', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(stats), '/api/dashboard/sales': () => json(series) });
    renderAt(<DashboardPage />, '/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Sales' }));
    expect(card('Total Sales').getByText('2,000')).toBeInTheDocument();
    expect(card('Total Revenue').getByText('£29,987.01')).toBeInTheDocument();
    // 2,998,701 / 2,000 = 1,499.35 pence -> £14.99
    expect(card('Average per Sale').getByText('£14.99')).toBeInTheDocument();
    // ebook 1,200 of 2,000 = 60.0%; hardcover 300 = 15.0%; paperback 200 = 10.0%
    expect(screen.getByText('1,200 (60.0%)')).toBeInTheDocument();
    expect(screen.getAllByText('300 (15.0%)')).toHaveLength(2);
    expect(screen.getByText('200 (10.0%)')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /What We Owe the Dead/ });
    expect(within(row).getByText('E-Book')).toBeInTheDocument();
    expect(within(row).getByText('£24,987.00')).toBeInTheDocument();
    // The chart and its table fallback
    expect(await screen.findByRole('img', { name: 'Sales per day, last 30 days: 3 in total.' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Revenue per day, last 30 days: £59.97 in total.' })).toBeInTheDocument();
    expect(screen.getByText('2 sales · 66.7% · £49.98')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Sales and revenue per day, last 30 days' })).toBeInTheDocument();
  });

  it('switches the chart range', async () => {
    const fetch = mockFetch({
      '/api/dashboard/stats': () => json(stats),
      '/api/dashboard/sales': (url) => json({ ...series, range: new URL(url, 'http://x').searchParams.get('range') }),
    });
    renderAt(<DashboardPage />, '/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Sales' }));
    await user.click(await screen.findByRole('button', { name: 'Last 90 days' }));
    expect(screen.getByRole('button', { name: 'Last 90 days' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).endsWith('range=90d'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'All time' }));
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).endsWith('range=all'))).toBe(true));
  });

  it('shows the content tab: publication rate, reviews per book and the rating note', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(stats) });
    renderAt(<DashboardPage />, '/dashboard');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Content' }));
    expect(card('Total Books').getByText('2')).toBeInTheDocument();
    expect(card('Average Rating').getByText('4.8')).toBeInTheDocument();
    expect(screen.getByText('62.5%')).toBeInTheDocument(); // 5 of 8
    expect(screen.getByText('1.5')).toBeInTheDocument(); // 3 reviews / 2 books
    expect(screen.getByText('A breakdown of ratings by star is not available.')).toBeInTheDocument();
  });

  it('shows the users tab: subscription rate, activities per user and subscribed vs not', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(stats) });
    renderAt(<DashboardPage />, '/dashboard');
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Users' }));
    expect(card('Total Users').getByText('1,234')).toBeInTheDocument();
    expect(card('Subscribed').getByText('456')).toBeInTheDocument();
    expect(card('Subscription Rate').getByText('37.0%')).toBeInTheDocument();
    expect(card('Activities per User').getByText('2.0')).toBeInTheDocument(); // 2,468 / 1,234
    expect(screen.getByText('778 (63.0%)')).toBeInTheDocument();
  });

  it('says who the user figures count, and shows the newsletter subscribers as the Subscribers page counts them', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(stats) });
    renderAt(<DashboardPage />, '/dashboard');
    await screen.findByRole('tab', { name: 'Overview' });
    expect(card('Users').getByText('Readers only: admins and the demo reader are not counted')).toBeInTheDocument();
    const figure = screen.getByText('Newsletter subscribers').closest('div')!;
    expect(within(figure).getByText('789')).toBeInTheDocument();
    expect(screen.getByText('Subscribed readers')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Users' }));
    expect(card('Total Users').getByText('Readers only: admins and the demo reader are not counted')).toBeInTheDocument();
    expect(card('Newsletter Subscribers').getByText('789')).toBeInTheDocument();
    expect(card('Newsletter Subscribers').getByText(/as on the Subscribers page/)).toBeInTheDocument();
  });

  it('says "1 sale" and "1 review", never "1 sales" or "1 reviews"', async () => {
    const one: DashboardStats = {
      ...stats,
      salesStats: {
        totalSales: 1,
        totalRevenue: 999,
        salesByBook: [{ id: 1, title: 'What We Owe the Dead', totalSales: 1, revenue: 999, salesByFormat: { hardcover: 0, paperback: 0, ebook: 1, audiobook: 0 } }],
      },
      contentStats: { ...stats.contentStats, totalReviews: 1 },
    };
    const oneSeries = {
      ...series,
      points: [{ period: '2026-11-21', sales: 1, revenue: 999 }],
      formats: series.formats.map((f) => (f.format === 'ebook' ? f : { ...f, sales: 0, revenue: 0 })),
    };
    mockFetch({ '/api/dashboard/stats': () => json(one), '/api/dashboard/sales': () => json(oneSeries) });
    renderAt(<DashboardPage />, '/dashboard');
    await screen.findByRole('tab', { name: 'Overview' });
    expect(screen.getByText('1 sale · £9.99')).toBeInTheDocument();
    expect(card('Books & Reviews').getByText('1 review, average 4.8')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Sales' }));
    expect(await screen.findByText('1 sale, last 30 days')).toBeInTheDocument();
    expect(screen.getByText('1 sale · 100.0% · £9.99')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Content' }));
    expect(card('Average Rating').getByText('from 1 review')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/\b1 (sales|reviews)\b/);
  });

  it('offers Try Again after a failure and recovers', async () => {
    let fail = true;
    mockFetch({ '/api/dashboard/stats': () => (fail ? new Response('boom', { status: 500 }) : json(stats)) });
    renderAt(<DashboardPage />, '/dashboard');
    expect(await screen.findByText('Failed to load dashboard data. Please try again later.')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('tab', { name: 'Overview' })).toBeInTheDocument();
  });

  it('a report stopped for taking too long says so beside the usual failure', async () => {
    mockFetch({ '/api/dashboard/stats': () => json({ message: REPORT_TOO_LONG, code: 'REPORT_TIMEOUT' }, 503) });
    renderAt(<DashboardPage />, '/dashboard');
    expect(await screen.findByText(/Failed to load dashboard data\. Please try again later\./)).toBeInTheDocument();
    expect(screen.getByText(REPORT_TOO_LONG)).toBeInTheDocument();
  });

  it('says "No data available" when there is nothing to show', async () => {
    mockFetch({ '/api/dashboard/stats': () => json({ ...stats, salesStats: { totalSales: 0, totalRevenue: 0, salesByBook: [] } }) });
    renderAt(<DashboardPage />, '/dashboard');
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });

  it('says "No data available" when the answer is empty', async () => {
    mockFetch({ '/api/dashboard/stats': () => json(null) });
    renderAt(<DashboardPage />, '/dashboard');
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
  it('shows the read-through tab: the share who reached each chapter per format, withheld chapters said in words', async () => {
    mockFetch({
      '/api/dashboard/stats': () => json(stats),
      '/api/books/featured': () => json({ id: 3 }),
      '/api/admin/books/3/read-through': () =>
        json({
          bookId: 3,
          minimumReaders: 5,
          nextBook: { id: 4, title: 'What the Tide Keeps' },
          formats: [
            {
              format: 'audiobook',
              owners: 8,
              chapters: [
                { title: 'Chapter One', reached: 1, hidden: false },
                { title: 'Chapter Two', reached: 0.75, hidden: false },
                { title: 'Chapter Three', reached: null, hidden: true },
              ],
              finishers: 6,
              medianDaysToFinish: 3.5,
              finishersWhoBoughtNext: 5,
            },
            {
              format: 'ebook',
              owners: null,
              chapters: [{ title: 'Chapter One', reached: null, hidden: true }],
              finishers: null,
              medianDaysToFinish: null,
              finishersWhoBoughtNext: null,
            },
          ],
        }),
    });
    renderAt(<DashboardPage />, '/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Read-through' }));
    const audio = within(await screen.findByRole('region', { name: 'Audiobook' }));
    expect(audio.getByText('8 owners counted.')).toBeInTheDocument();
    expect(audio.getByText('6 finished it, in 3.5 days (median) from owning it. 5 of them (83%) own What the Tide Keeps.')).toBeInTheDocument();
    expect(within(audio.getByRole('row', { name: /Chapter Two/ })).getByText('75%')).toBeInTheDocument();
    expect(within(audio.getByRole('row', { name: /Chapter Three/ })).getByText('Fewer than 5 readers')).toBeInTheDocument();
    expect(audio.getByRole('img', { name: 'Audiobook read-through: Chapter One 100%, Chapter Two 75%, Chapter Three not shown' })).toBeInTheDocument();
    const ebook = within(screen.getByRole('region', { name: 'E-Book' }));
    expect(ebook.getByText('Fewer than 5 owners counted so far.')).toBeInTheDocument();
    expect(ebook.queryByRole('img')).not.toBeInTheDocument();
  });
});
