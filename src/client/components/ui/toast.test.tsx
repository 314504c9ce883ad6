import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOAST } from '@shared/constants';
import { Toaster } from './toaster';
import { resetToastStore, toast, useToast } from './toast-store';

/** Exposes the store's contents (open or closed) so removal can be observed. */
function StoreProbe() {
  const { toasts } = useToast();
  return <output data-testid="store">{toasts.map((t) => `${t.id}:${t.open ? 'open' : 'closed'}`).join(',')}</output>;
}

function renderToaster() {
  return render(
    <>
      <Toaster />
      <StoreProbe />
    </>,
  );
}

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    act(() => resetToastStore());
  });
  afterEach(() => {
    act(() => resetToastStore());
    vi.useRealTimers();
  });

  it('shows one toast at a time: a new one replaces the old', () => {
    renderToaster();
    act(() => {
      toast({ title: 'First', description: 'one' });
    });
    expect(screen.getByText('First')).toBeInTheDocument();
    act(() => {
      toast({ title: 'Second', description: 'two' });
    });
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByTestId('store').textContent?.split(',')).toHaveLength(1);
  });

  it('auto-closes after 5000 ms by default and is removed from the store after the removal delay', () => {
    renderToaster();
    let id = '';
    act(() => {
      id = toast({ title: 'Saved' }).id;
    });
    act(() => vi.advanceTimersByTime(TOAST.durationMs - 100));
    expect(screen.getByText('Saved')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    // Closed but kept until the removal delay passes.
    expect(screen.getByTestId('store')).toHaveTextContent(`${id}:closed`);

    act(() => vi.advanceTimersByTime(TOAST.removeDelayMs - 1000));
    expect(screen.getByTestId('store')).toHaveTextContent(`${id}:closed`);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('store')).toBeEmptyDOMElement();
  });

  it('honours a custom duration, dismiss() and update()', () => {
    renderToaster();
    let handle!: ReturnType<typeof toast>;
    act(() => {
      handle = toast({ title: 'Short', duration: 1000 });
    });
    act(() => handle.update({ title: 'Changed' }));
    expect(screen.getByText('Changed')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1001));
    expect(screen.queryByText('Changed')).not.toBeInTheDocument();

    act(() => {
      handle = toast({ title: 'Manual' });
    });
    act(() => handle.dismiss());
    expect(screen.queryByText('Manual')).not.toBeInTheDocument();
  });

  it('marks destructive toasts and offers a labelled close button and an F8 region', () => {
    renderToaster();
    act(() => {
      toast({ title: 'Login Failed', description: 'Invalid username or password', variant: 'destructive' });
    });
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close notification' })).toBeInTheDocument();
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    // Radix focuses the toast list inside the labelled region.
    expect(document.activeElement).not.toBe(document.body);
    expect(region).toContainElement(document.activeElement as HTMLElement);
  });
});
