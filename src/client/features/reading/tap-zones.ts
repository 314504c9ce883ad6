/**
 * Where a tap on the page lands. As in printed-book apps: the outer fifth or so on each side turns the
 * page (the left edge towards the left-hand page, so a right-to-left book turns the right way), and the
 * middle shows or hides the reader's controls.
 */
export type TapZone = 'left' | 'middle' | 'right';

/** The share of the page's width each edge zone takes. */
export const EDGE_SHARE = 0.22;

/** The zone of a tap at `x` (viewport pixels) on a page spanning `left` to `left + width`. */
export function tapZone(x: number, left: number, width: number): TapZone {
  if (width <= 0) return 'middle';
  const at = (x - left) / width;
  if (at < EDGE_SHARE) return 'left';
  if (at > 1 - EDGE_SHARE) return 'right';
  return 'middle';
}
