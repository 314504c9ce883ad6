import { EDGE_SHARE, tapZone } from './tap-zones';

describe('tapZone', () => {
  it('turns at the outer edges and toggles the controls in the middle', () => {
    // A 390 px phone page starting at the screen's edge.
    expect(tapZone(10, 0, 390)).toBe('left');
    expect(tapZone(390 * EDGE_SHARE - 1, 0, 390)).toBe('left');
    expect(tapZone(195, 0, 390)).toBe('middle');
    expect(tapZone(390 * (1 - EDGE_SHARE) + 1, 0, 390)).toBe('right');
    expect(tapZone(385, 0, 390)).toBe('right');
  });

  it('measures from where the page starts, not from the screen edge', () => {
    expect(tapZone(310, 300, 700)).toBe('left');
    expect(tapZone(650, 300, 700)).toBe('middle');
    expect(tapZone(990, 300, 700)).toBe('right');
  });

  it('treats a page with no width as all middle', () => {
    expect(tapZone(10, 0, 0)).toBe('middle');
  });
});
