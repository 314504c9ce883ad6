/** Test environment: jest-dom matchers and the browser APIs Radix expects but jsdom lacks. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait for a state, up to this long: a page's lazy chunk (the Toaster, a dialog) can
// take over a second to load on a loaded machine, and a wait that ends sooner fails a test that is right.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

if (typeof window.PointerEvent === 'undefined') {
  // Radix menus listen for pointer events; a MouseEvent with pointer fields is close enough.
  class PointerEventStub extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  }
  window.PointerEvent = PointerEventStub as unknown as typeof PointerEvent;
}

Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};

// The post editor (ProseMirror) measures the selection to scroll it into view after an insert; jsdom has
// no layout, and its Range lacks the measuring methods, so an image inserted late in a test threw outside
// it. An empty rectangle is what a layout-less page would measure.
Range.prototype.getClientRects ??= function getClientRects() {
  const rects: DOMRect[] = [];
  return Object.assign(rects, { item: (index: number) => rects[index] ?? null }) as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect ??= () => new DOMRect(0, 0, 0, 0);
window.scrollTo = (() => {}) as typeof window.scrollTo;

window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
