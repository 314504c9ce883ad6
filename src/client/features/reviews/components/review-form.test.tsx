import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REVIEW_MESSAGES, type MyReview } from '@shared/schemas/reviews';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ReviewForm } from './review-form';
import { ReviewPrompt } from './review-prompt';
import { ReviewButton } from './review-button';

const BOOK = 7;
const URL_MINE = `/api/books/${BOOK}/my-review`;
const saved = (over: Partial<MyReview> = {}): MyReview => ({
  id: 3,
  bookId: BOOK,
  rating: 4,
  text: 'A slow burn that pays off.',
  status: 'pending',
  answer: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  ...over,
});

const bodyOf = (fetchMock: ReturnType<typeof mockFetch>, method: string) => {
  const call = fetchMock.mock.calls.find(([u, init]) => String(u).endsWith(URL_MINE) && init?.method === method);
  return call ? JSON.parse(String(call[1]!.body)) : undefined;
};

describe('ReviewForm', () => {
  beforeEach(() => clearCsrfToken());
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a missing rating and a too-short text with the shared messages, without calling the server', async () => {
    const fetchMock = mockFetch({});
    renderAt(<ReviewForm bookId={BOOK} review={null} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your review'), 'Too short');
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByText(REVIEW_MESSAGES.ratingRequired)).toBeInTheDocument();
    expect(screen.getByText(REVIEW_MESSAGES.textTooShort)).toBeInTheDocument();
    expect(screen.getByLabelText('Your review')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the chosen stars and text, and says the review waits for the author', async () => {
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      [URL_MINE]: () => json(saved({ rating: 5, text: 'Gripping from the first page.' }), 201),
    });
    const onSaved = vi.fn();
    renderAt(<ReviewForm bookId={BOOK} review={null} onSaved={onSaved} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '5 stars' }));
    await user.type(screen.getByLabelText('Your review'), '  Gripping from the first page.  ');
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByRole('status')).toHaveTextContent(REVIEW_MESSAGES.saved);
    expect(bodyOf(fetchMock, 'POST')).toEqual({ rating: 5, text: 'Gripping from the first page.' });
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('edits an existing review with PUT, showing its state and the author\'s answer', async () => {
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      [URL_MINE]: () => json(saved({ rating: 3 })),
    });
    renderAt(<ReviewForm bookId={BOOK} review={saved({ status: 'approved', answer: 'Thank you for reading.' })} />);
    expect(screen.getByText('Shown on the home page as a verified reader’s review.')).toBeInTheDocument();
    expect(screen.getByText('Thank you for reading.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked();
    expect(screen.getByLabelText('Your review')).toHaveValue('A slow burn that pays off.');
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '3 stars' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'PUT')).toEqual({ rating: 3, text: 'A slow burn that pays off.' }));
    expect(bodyOf(fetchMock, 'POST')).toBeUndefined();
  });

  it("shows the server's refusal: a field message under its field, any other as an alert", async () => {
    let answer = json({ message: 'Validation failed', fields: { text: REVIEW_MESSAGES.textTooLong } }, 400);
    mockFetch({ '/api/csrf-token': () => json({ csrfToken: 't' }), [URL_MINE]: () => answer });
    renderAt(<ReviewForm bookId={BOOK} review={null} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '2 stars' }));
    await user.type(screen.getByLabelText('Your review'), 'Long enough to send.');
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByText(REVIEW_MESSAGES.textTooLong)).toBeInTheDocument();
    answer = json({ message: REVIEW_MESSAGES.notOwned, code: 'FORBIDDEN' }, 403);
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REVIEW_MESSAGES.notOwned);
  });
});

describe('ReviewPrompt ("Enjoyed it?")', () => {
  beforeEach(() => clearCsrfToken());
  afterEach(() => vi.unstubAllGlobals());

  const mine = (askAtEnd: boolean) => json({ bookId: BOOK, bookTitle: 'What We Owe the Dead', canReview: true, askAtEnd, review: null });

  it('asks nothing before the end, asks at the end, and "Not now" is sent to the server once', async () => {
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      [URL_MINE]: () => mine(true),
      [`/api/books/${BOOK}/review-prompt/dismiss`]: () => json({ success: true, message: REVIEW_MESSAGES.promptDismissed }),
    });
    function Room() {
      const [end, setEnd] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setEnd(true)}>Last page</button>
          <ReviewPrompt bookId={BOOK} reachedEnd={end} />
        </>
      );
    }
    renderAt(<Room />);
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Last page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enjoyed it?' });
    expect(dialog).toHaveTextContent('You have reached the end of What We Owe the Dead.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const dismissals = fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/review-prompt/dismiss'));
    expect(dismissals).toHaveLength(1);
  });

  it('does not open when the server says not to ask (reviewed or dismissed before)', async () => {
    const fetchMock = mockFetch({ [URL_MINE]: () => mine(false) });
    renderAt(<ReviewPrompt bookId={BOOK} reachedEnd />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('ReviewButton (the library)', () => {
  beforeEach(() => clearCsrfToken());
  afterEach(() => vi.unstubAllGlobals());

  it('reads the review only when opened, and edits the existing one', async () => {
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      [URL_MINE]: (_url, init) =>
        init.method === 'PUT'
          ? json(saved({ text: 'Better on a second reading, truly.' }))
          : json({ bookId: BOOK, bookTitle: 'What We Owe the Dead', canReview: true, askAtEnd: false, review: saved() }),
    });
    renderAt(<ReviewButton bookId={BOOK} title="What We Owe the Dead" />);
    expect(fetchMock).not.toHaveBeenCalled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Review this book' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your review of What We Owe the Dead' });
    expect(await screen.findByLabelText('Your review')).toHaveValue('A slow burn that pays off.');
    expect(dialog).toHaveTextContent('Waiting for the author to read it.');
    await user.clear(screen.getByLabelText('Your review'));
    await user.type(screen.getByLabelText('Your review'), 'Better on a second reading, truly.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(REVIEW_MESSAGES.saved)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT')).toEqual({ rating: 4, text: 'Better on a second reading, truly.' });
  });
});
