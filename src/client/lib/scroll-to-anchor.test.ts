import { scrollToAnchor } from './scroll-to-anchor';

describe('scrollToAnchor', () => {
  let top = 2000;
  let section: HTMLElement;
  beforeEach(() => {
    vi.useFakeTimers();
    section = document.createElement('section');
    section.id = 'purchase';
    section.scrollIntoView = vi.fn();
    section.getBoundingClientRect = () => ({ top, bottom: top, left: 0, right: 0, width: 0, height: 0, x: 0, y: top, toJSON: () => ({}) });
  });
  afterEach(() => {
    section.remove();
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

  it('follows the section while content above it is still growing', () => {
    document.body.append(section);
    scrollToAnchor('purchase');
    expect(section.scrollIntoView).toHaveBeenCalledTimes(1);
    top = 3000; // an image above finished loading
    vi.advanceTimersByTime(160);
    expect(section.scrollIntoView).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(3000); // holds still: no more scrolling, and the follow ends
    expect(section.scrollIntoView).toHaveBeenCalledTimes(2);
  });

  it('stops following as soon as the visitor scrolls', () => {
    top = 2000;
    document.body.append(section);
    scrollToAnchor('purchase');
    window.dispatchEvent(new Event('wheel'));
    top = 4000;
    vi.advanceTimersByTime(500);
    expect(section.scrollIntoView).toHaveBeenCalledTimes(1);
  });
});
