import { scrollToAnchor } from './scroll-to-anchor';

describe('scrollToAnchor', () => {
  let top = 2000;
  let section: HTMLElement;
  let scrollTo: ReturnType<typeof vi.fn>;
  const originalScrollTo = window.scrollTo;

  beforeEach(() => {
    vi.useFakeTimers();
    top = 2000;
    section = document.createElement('section');
    section.id = 'purchase';
    section.scrollIntoView = vi.fn();
    // `top` is the section's place in the page; the rectangle is relative to the viewport.
    section.getBoundingClientRect = () => {
      const y = top - window.scrollY;
      return { top: y, bottom: y, left: 0, right: 0, width: 0, height: 0, x: 0, y, toJSON: () => ({}) };
    };
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 20_000 });
    scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  });
  const setScrollY = (value: number) => Object.defineProperty(window, 'scrollY', { configurable: true, value });
  afterEach(() => {
    setScrollY(0);
    section.remove();
    document.querySelectorAll('[data-skeleton]').forEach((el) => el.remove());
    window.scrollTo = originalScrollTo;
    vi.useRealTimers();
  });

  it('waits for a section that is not rendered yet', () => {
    const stop = scrollToAnchor('purchase');
    expect(section.scrollIntoView).not.toHaveBeenCalled();
    document.body.append(section);
    vi.advanceTimersByTime(60);
    expect(section.scrollIntoView).toHaveBeenCalledTimes(1);
    stop();
  });

  it('arriving from another page: jumps, then puts the section back each time content above it grows', () => {
    document.body.append(section);
    scrollToAnchor('purchase', { behavior: 'instant' });
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 2000, behavior: 'instant' });
    top = 3000; // an image or a late section above finished loading
    vi.advanceTimersByTime(110);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 3000, behavior: 'instant' });
    const calls = scrollTo.mock.calls.length;
    vi.advanceTimersByTime(20_000); // scrollY stays 0 in jsdom, so the check keeps correcting until the limit
    expect(scrollTo.mock.calls.length).toBeGreaterThan(calls);
    expect(scrollTo.mock.calls.length).toBeLessThan(calls + 120); // bounded: about 10 s of checks
  });

  it('lets go once the section holds still and nothing above it is still loading', () => {
    const placeholder = document.createElement('div');
    placeholder.setAttribute('data-skeleton', '');
    document.body.append(placeholder, section);
    top = 0; // already in place
    scrollToAnchor('purchase', { behavior: 'instant' });
    vi.advanceTimersByTime(3000);
    // Still following: a placeholder above the section means content there has yet to arrive.
    top = 500;
    vi.advanceTimersByTime(110);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 500, behavior: 'instant' });
    placeholder.remove();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 500 });
    const calls = scrollTo.mock.calls.length;
    vi.advanceTimersByTime(1000); // quiet and rendered: the follow ends
    top = 900;
    vi.advanceTimersByTime(1000);
    expect(scrollTo.mock.calls.length).toBe(calls);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  });

  it('stops following as soon as the visitor scrolls', () => {
    document.body.append(section);
    scrollToAnchor('purchase', { behavior: 'instant' });
    window.dispatchEvent(new Event('wheel'));
    top = 4000;
    vi.advanceTimersByTime(500);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('lets go when something else scrolls the page while the section stays where it is in it', () => {
    document.body.append(section);
    scrollToAnchor('purchase', { behavior: 'instant' });
    expect(scrollTo).toHaveBeenCalledTimes(1);
    setScrollY(700); // find-in-page, a focus move, a test driver: no wheel, touch or key
    vi.advanceTimersByTime(110);
    top = 3000;
    vi.advanceTimersByTime(500);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('on the loaded page the browser made the jump: the section is kept, not jumped to', () => {
    document.body.append(section);
    setScrollY(2000);
    scrollToAnchor('purchase', { behavior: 'instant', landed: true });
    vi.advanceTimersByTime(110);
    expect(scrollTo).not.toHaveBeenCalled();
    top = 2500; // content above grew, nothing else moved
    vi.advanceTimersByTime(110);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 2500, behavior: 'instant' });
  });

  it('on the loaded page, a reader who has already scrolled away from the section stays where they are', () => {
    document.body.append(section);
    setScrollY(300);
    scrollToAnchor('purchase', { behavior: 'instant', landed: true });
    top = 2600;
    vi.advanceTimersByTime(1000);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('on the loaded page, a section that was not there yet is jumped to once it is', () => {
    scrollToAnchor('purchase', { behavior: 'instant', landed: true });
    document.body.append(section);
    vi.advanceTimersByTime(60);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 2000, behavior: 'instant' });
  });
});
