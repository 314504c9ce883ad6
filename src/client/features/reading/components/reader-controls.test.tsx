import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from '@client/lib/router';
import { DEFAULT_PREFS, type ReaderPrefs } from '../prefs';
import { PageNav, ReaderBar, type ReaderPanel, type TocEntry } from './reader-controls';

const toc: TocEntry[] = [
  { label: 'Title page', target: 'title.xhtml', depth: 0 },
  { label: 'Chapter One: The Return', target: 'chapter-01.xhtml', depth: 0 },
];

function Bar({
  onToc = vi.fn(),
  entries = toc,
  start = DEFAULT_PREFS,
  current = null,
}: {
  onToc?: (t: string) => void;
  entries?: TocEntry[];
  start?: ReaderPrefs;
  current?: string | null;
}) {
  const [prefs, setPrefs] = useState(start);
  const [panel, setPanel] = useState<ReaderPanel>(null);
  return (
    <Router>
      <ReaderBar
        title="What We Owe the Dead"
        backTo={{ href: '/profile#library', label: 'Your library' }}
        toc={entries}
        currentTarget={current}
        onTocSelect={onToc}
        panel={panel}
        onPanelChange={setPanel}
        prefs={prefs}
        onPrefsChange={setPrefs}
      />
      <p data-testid="prefs">{JSON.stringify(prefs)}</p>
    </Router>
  );
}
const prefsShown = () => JSON.parse(screen.getByTestId('prefs').textContent!) as ReaderPrefs;

describe('reader controls', () => {
  it('shows the progress as a percentage and turns pages with "Previous page" and "Next page"', () => {
    const onPrev = vi.fn();
    const onNext = vi.fn();
    const { rerender } = render(<PageNav progress={0.372} onPrev={onPrev} onNext={onNext} detail="Chapter One: The Return" />);
    expect(screen.getByTestId('reading-progress')).toHaveTextContent('37%');
    expect(screen.getByText('Chapter One: The Return')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onNext).toHaveBeenCalledTimes(2);
    expect(onPrev).toHaveBeenCalledTimes(1);
    rerender(<PageNav progress={1} onPrev={onPrev} onNext={onNext} atEnd />);
    expect(screen.getByTestId('reading-progress')).toHaveTextContent('100%');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    rerender(<PageNav progress={null} onPrev={onPrev} onNext={onNext} />);
    expect(screen.getByTestId('reading-progress')).toHaveTextContent('…');
  });

  it('lists the contents and goes to the chosen entry, closing the panel', () => {
    const onToc = vi.fn();
    render(<Bar onToc={onToc} />);
    const toggle = screen.getByRole('button', { name: 'Contents' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: 'Contents' });
    expect(within(panel).getAllByRole('button').map((b) => b.textContent)).toEqual(['Title page', 'Chapter One: The Return']);
    fireEvent.click(within(panel).getByRole('button', { name: 'Chapter One: The Return' }));
    expect(onToc).toHaveBeenCalledWith('chapter-01.xhtml');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Contents' })).toBeNull();
  });

  it('marks the chapter the reader is in as the current entry', () => {
    render(<Bar current="chapter-01.xhtml" />);
    fireEvent.click(screen.getByRole('button', { name: 'Contents' }));
    const panel = screen.getByRole('region', { name: 'Contents' });
    expect(within(panel).getByRole('button', { name: 'Chapter One: The Return' })).toHaveAttribute('aria-current', 'true');
    expect(within(panel).getByRole('button', { name: 'Title page' })).not.toHaveAttribute('aria-current');
    expect(within(panel).getByText('You are here')).toBeInTheDocument();
  });

  it('closes the open panel on Escape and gives the focus back to its button', () => {
    render(<Bar />);
    const toggle = screen.getByRole('button', { name: 'Reading settings' });
    fireEvent.click(toggle);
    expect(screen.getByRole('region', { name: 'Reading settings' })).toBeVisible();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Reading settings' })).toBeNull();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('says so when a book has no table of contents', () => {
    render(<Bar entries={[]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Contents' }));
    expect(screen.getByText('This book has no table of contents.')).toBeInTheDocument();
  });

  it('sizes the text from 80 % to 200 % in steps of 10, and no further', () => {
    render(<Bar start={{ ...DEFAULT_PREFS, fontSize: 90 }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reading settings' }));
    const smaller = screen.getByRole('button', { name: 'Smaller text size' });
    const larger = screen.getByRole('button', { name: 'Larger text size' });
    fireEvent.click(smaller);
    expect(screen.getByText('80%')).toBeInTheDocument();
    expect(smaller).toBeDisabled();
    for (let i = 0; i < 15; i += 1) fireEvent.click(larger);
    expect(screen.getByText('200%')).toBeInTheDocument();
    expect(prefsShown().fontSize).toBe(200);
    expect(larger).toBeDisabled();
  });

  it('switches between light, sepia and dark, and between pages and scrolling', () => {
    render(<Bar />);
    fireEvent.click(screen.getByRole('button', { name: 'Reading settings' }));
    const theme = screen.getByRole('group', { name: 'Theme' });
    expect(within(theme).getByRole('radio', { name: 'Light' })).toBeChecked();
    fireEvent.click(within(theme).getByRole('radio', { name: 'Sepia' }));
    expect(prefsShown().theme).toBe('sepia');
    fireEvent.click(within(theme).getByRole('radio', { name: 'Dark' }));
    expect(prefsShown().theme).toBe('dark');
    const layout = screen.getByRole('group', { name: 'Layout' });
    fireEvent.click(within(layout).getByRole('radio', { name: 'Scroll' }));
    expect(prefsShown().flow).toBe('scrolled');
    expect(screen.getByRole('link', { name: 'Your library' })).toHaveAttribute('href', '/profile#library');
  });
});
