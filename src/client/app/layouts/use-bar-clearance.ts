/**
 * Keeps the floating bottom bar off the page's own controls. The bar floats over the page, so while the
 * page scrolls a button or link can pass beneath it ("Get Your Copy", "Pay £14.99" on a phone); then it
 * could not be tapped. Whenever any visible control of the page sits under the bar's place, the bar steps
 * aside (fades out and takes no taps); it comes back as soon as the place is clear. The page's bottom
 * padding (footer) keeps the very end of every page clear, so the bar is always there at the end.
 */
import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

export const INTERACTIVE_SELECTOR =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [tabindex]:not([tabindex="-1"])';
/** Controls this close to the bar count as under it: a thumb is wider than a pixel. */
const MARGIN_PX = 6;
/** The catch-all re-check; one query and a few hundred rectangles, so cheap. */
const SAFETY_CHECK_MS = 500;

function visible(el: Element): boolean {
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  // Opacity is not asked: a control fading in is about to be seen.
  return check ? check.call(el, { visibilityProperty: true }) : true;
}

/** Whether a visible control of the page (not of the bar) overlaps the rectangle the bar occupies. */
export function controlUnder(bar: HTMLElement): boolean {
  const band = bar.getBoundingClientRect();
  if (band.width === 0 || band.height === 0) return false;
  for (const el of document.querySelectorAll(INTERACTIVE_SELECTOR)) {
    // The bar's own controls, and its menu, dialogs and tooltips that float above everything.
    if (bar.contains(el) || el.closest('[role="menu"], [role="dialog"], [role="tooltip"]')) continue;
    const r = el.getBoundingClientRect();
    // Screen-reader-only elements (1 px, clipped) are not something a finger can miss.
    if (r.width < 2 || r.height < 2) continue;
    if (r.bottom <= band.top - MARGIN_PX || r.top >= band.bottom + MARGIN_PX) continue;
    if (r.right <= band.left - MARGIN_PX || r.left >= band.right + MARGIN_PX) continue;
    if (visible(el)) return true;
  }
  return false;
}

/**
 * True while the bar should step aside. Checked on scroll, resize and whenever the page changes; layout
 * can also move without any of those (fonts swapping inside a fixed-height hero, entrance animations,
 * images decoding), so animation/transition ends, image loads, font loads and a slow timer check too.
 */
export function useBarClearance(barRef: RefObject<HTMLElement | null>): boolean {
  const [covering, setCovering] = useState(false);

  useEffect(() => {
    let frame = 0;
    let checks = 0;
    const check = () => {
      frame = 0;
      const bar = barRef.current;
      if (!bar) return;
      // A keyboard user inside the bar keeps it.
      setCovering(!bar.contains(document.activeElement) && controlUnder(bar));
      // Counted on the bar so that whoever watches the page (the browser journeys) can wait for a check
      // made after the layout settled instead of guessing how long that takes.
      bar.dataset.checks = String(++checks);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    // Content arriving, menus opening, sections expanding: all change what lies under the bar.
    const mutations = new MutationObserver(schedule);
    mutations.observe(document.body, { childList: true, subtree: true });
    // The page growing or shrinking, and the bar itself (it widens when the admin's Dashboard item appears).
    const resizes = new ResizeObserver(schedule);
    resizes.observe(document.body);
    if (barRef.current) resizes.observe(barRef.current);
    const moved = ['animationend', 'transitionend', 'load'] as const;
    for (const type of moved) document.addEventListener(type, schedule, true);
    document.fonts?.addEventListener?.('loadingdone', schedule);
    const timer = setInterval(schedule, SAFETY_CHECK_MS);
    schedule();
    return () => {
      clearInterval(timer);
      for (const type of moved) document.removeEventListener(type, schedule, true);
      document.fonts?.removeEventListener?.('loadingdone', schedule);
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      mutations.disconnect();
      resizes.disconnect();
    };
  }, [barRef]);

  return covering;
}
