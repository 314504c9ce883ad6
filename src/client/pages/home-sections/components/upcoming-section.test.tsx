import { act, fireEvent, screen } from '@testing-library/react';
import type { UpcomingBook } from '@shared/schemas/site';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, renderAt } from '@client/test/render';
import { UpcomingSection } from './upcoming-section';

const book: UpcomingBook = {
  id: 2,
  title: 'The Quiet Inheritance',
  tagline: 'The money was never the inheritance.',
  synopsis: 'First part.\n\nSecond part.',
  coverImage: '/images/covers/q.svg',
  yearPublished: 2027,
  publisher: 'Harrow & Vane',
  teaserVideoId: 'Xq3vR8nLw2E',
};

describe('UpcomingSection', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('shows a skeleton while loading', () => {
    renderAt(<UpcomingSection book={undefined} loading />);
    expect(screen.getByRole('status', { name: 'Loading the upcoming book' })).toBeInTheDocument();
    expect(screen.queryByText('No upcoming books available at this time')).not.toBeInTheDocument();
  });

  it('says "Coming soon" before the release and "Out now" once the book is released', async () => {
    const area = (released: boolean) => ({ book: { id: 2, title: book.title }, releaseAt: '2026-12-03T09:00:00.000Z', released, formats: [] });
    mockFetch({ '/api/store/pre-order': () => json(area(false)) });
    const first = renderAt(<UpcomingSection book={book} loading={false} />);
    expect(await screen.findByText('Coming soon')).toBeInTheDocument();
    first.unmount();
    mockFetch({ '/api/store/pre-order': () => json(area(true)) });
    renderAt(<UpcomingSection book={book} loading={false} />);
    expect(await screen.findByText('Out now')).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });

  it('says so when there is no upcoming book', () => {
    renderAt(<UpcomingSection book={null} loading={false} />);
    expect(screen.getByText('No upcoming books available at this time')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join the Waitlist' })).not.toBeInTheDocument();
  });

  it('shows the book and embeds the privacy-enhanced teaser only when asked', () => {
    const { container } = renderAt(<UpcomingSection book={book} loading={false} />);
    expect(screen.getByRole('heading', { name: 'The Quiet Inheritance' })).toBeInTheDocument();
    expect(container.querySelector('iframe')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Play the teaser/ }));
    const frame = screen.getByTitle('The Quiet Inheritance: teaser video');
    expect(frame.getAttribute('src')).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/Xq3vR8nLw2E\?/);
  });

  it('the waitlist button scrolls to the newsletter and focuses the email after 800 ms', () => {
    vi.useFakeTimers();
    try {
      const scrolled = vi.fn();
      renderAt(
        <>
          <UpcomingSection book={book} loading={false} />
          <section id="newsletter-section">
            <input id="newsletter-email" aria-label="Email" />
          </section>
        </>,
      );
      document.getElementById('newsletter-section')!.scrollIntoView = scrolled;
      fireEvent.click(screen.getByRole('button', { name: 'Join the Waitlist' }));
      expect(scrolled).toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(799));
      expect(screen.getByLabelText('Email')).not.toHaveFocus();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByLabelText('Email')).toHaveFocus();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows "Newsletter Section Not Found" when the section is missing', async () => {
    renderAt(
      <>
        <UpcomingSection book={book} loading={false} />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Join the Waitlist' }));
    expect(await screen.findByText('Newsletter Section Not Found')).toBeInTheDocument();
  });
});
