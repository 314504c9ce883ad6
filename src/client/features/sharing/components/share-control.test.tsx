import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ShareControl } from './share-control';

const URL_TO_SHARE = 'https://www.example.com/blog/a-post';

function setup(points = 0) {
  const fetchMock = mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 'csrf-1' }),
    '/api/social-share': () => json({ success: true, pointsAwarded: points, message: points ? `You earned ${points} points.` : 'Thanks' }),
  });
  const open = vi.fn((..._args: unknown[]) => null);
  vi.stubGlobal('open', open);
  return { fetchMock, open };
}

const shareCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([u]) => String(u) === '/api/social-share');

describe('ShareControl', () => {
  beforeEach(() => {
    clearCsrfToken();
    act(() => resetToastStore());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('default: opens X, Facebook and LinkedIn in a 600x400 popup and records each share', async () => {
    const { fetchMock, open } = setup();
    renderAt(<ShareControl title="A post" url={URL_TO_SHARE} />);
    const cases = [
      ['Share on X', 'https://x.com/intent/tweet?url=', 'x'],
      ['Share on Facebook', 'https://www.facebook.com/sharer/sharer.php?u=', 'facebook'],
      ['Share on LinkedIn', 'https://www.linkedin.com/sharing/share-offsite/?url=', 'linkedin'],
    ] as const;
    for (const [label, prefix, platform] of cases) {
      fireEvent.click(screen.getByRole('button', { name: label }));
      const [url, , features] = open.mock.calls.at(-1)!;
      expect(url).toBe(`${prefix}${encodeURIComponent(URL_TO_SHARE)}${platform === 'x' ? '&text=A%20post' : ''}`);
      expect(features).toMatch(/width=600,height=400/);
      await waitFor(() => expect(JSON.parse(String(shareCalls(fetchMock).at(-1)?.[1]?.body))).toEqual({ platform }));
    }
    expect(screen.getByRole('link', { name: 'Share by Email' })).toHaveAttribute(
      'href',
      `mailto:?subject=A%20post&body=${encodeURIComponent(URL_TO_SHARE)}`,
    );
  });

  it('shows "Points Earned!" when the server awards points', async () => {
    setup(10);
    renderAt(
      <>
        <ShareControl title="A post" url={URL_TO_SHARE} />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share on X' }));
    expect(await screen.findByText('Points Earned!')).toBeInTheDocument();
  });

  it('copy link: "Link copied!" toast and "Copied!" for 2 seconds', async () => {
    setup();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderAt(
        <>
          <ShareControl variant="expanded" direction="vertical" title="A post" url={URL_TO_SHARE} />
          <Toaster />
        </>,
      );
      expect(screen.getByRole('group', { name: 'Share' })).toHaveClass('flex-col');
      fireEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
      expect(await screen.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
      expect(writeText).toHaveBeenCalledWith(URL_TO_SHARE);
      expect(screen.getByText('Link copied!')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(1900));
      expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(200));
      expect(screen.getByRole('button', { name: 'Copy Link' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('copy link failure: "Copy failed" toast', async () => {
    setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) } });
    renderAt(
      <>
        <ShareControl title="A post" url={URL_TO_SHARE} />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(screen.getByText('Could not copy the link to clipboard')).toBeInTheDocument();
  });

  it('compact: a dropdown with every option; horizontal rows by default', async () => {
    const { open } = setup();
    const user = userEvent.setup();
    renderAt(
      <>
        <ShareControl variant="compact" label="Share the book" title="The book" url={URL_TO_SHARE} />
        <ShareControl label="Row" title="The book" url={URL_TO_SHARE} />
      </>,
    );
    expect(screen.getByRole('group', { name: 'Row' })).toHaveClass('flex-row');
    await user.click(screen.getByRole('button', { name: 'Share the book' }));
    const menu = await screen.findByRole('menu');
    for (const name of ['Share on X', 'Share on Facebook', 'Share on LinkedIn', 'Share by Email', 'Copy Link']) {
      expect(screen.getByRole('menuitem', { name })).toBeInTheDocument();
    }
    expect(menu).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Share on LinkedIn' }));
    expect(open).toHaveBeenCalledWith(expect.stringContaining('linkedin.com'), 'share-linkedin', expect.stringContaining('width=600,height=400'));
  });
});
