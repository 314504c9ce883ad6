import { act, render, screen } from '@testing-library/react';
import { LazyToaster } from './lazy-toaster';
import { resetToastStore, toast } from './toast-store';

describe('LazyToaster', () => {
  beforeEach(() => act(() => resetToastStore()));
  afterEach(() => act(() => resetToastStore()));

  it('renders nothing (no notification region) until a toast exists', () => {
    render(<LazyToaster />);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('shows a toast raised before it mounted once the Toaster has loaded', async () => {
    act(() => {
      toast({ title: 'Welcome back', description: 'Signed in' });
    });
    render(<LazyToaster />);
    expect(await screen.findByText('Welcome back')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeInTheDocument();
  });

  it('loads on the first toast raised after mount, and keeps one visible', async () => {
    render(<LazyToaster />);
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second' });
    });
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).toBeNull();
  });

  it('F8 before any toast loads the notification region and focuses it', async () => {
    render(<LazyToaster />);
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8' }));
    });
    const region = await screen.findByRole('region', { name: 'Notifications (F8)' });
    await vi.waitFor(() => expect(region.contains(document.activeElement)).toBe(true));
  });
});
