import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOOLTIP } from '@shared/constants';
import { Button } from './button';
import { Tooltip, TooltipGroup } from './tooltip';

const hover = (el: HTMLElement) => fireEvent.pointerMove(el, { pointerType: 'mouse' });
/** Leave the trigger and move well away, past Radix's grace area towards the content. */
const leave = (el: HTMLElement) => {
  fireEvent.pointerLeave(el, { pointerType: 'mouse', clientX: 0, clientY: 0 });
  fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 900, clientY: 900 });
};
const tip = () => screen.queryByRole('tooltip');

describe('Tooltip', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens after the delay of 700 ms on hover, with no app-wide provider', () => {
    render(
      <Tooltip content="Bold">
        <Button aria-label="Bold">B</Button>
      </Tooltip>,
    );
    hover(screen.getByRole('button', { name: 'Bold' }));
    act(() => vi.advanceTimersByTime(TOOLTIP.delayMs - 1));
    expect(tip()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(tip()).toHaveTextContent('Bold');
  });

  it('in a group, skips the delay when moving to a neighbour within 300 ms, not after', () => {
    render(
      <TooltipGroup>
        <Tooltip content="Bold">
          <Button aria-label="Bold">B</Button>
        </Tooltip>
        <Tooltip content="Italic">
          <Button aria-label="Italic">I</Button>
        </Tooltip>
      </TooltipGroup>,
    );
    const bold = screen.getByRole('button', { name: 'Bold' });
    const italic = screen.getByRole('button', { name: 'Italic' });

    hover(bold);
    act(() => vi.advanceTimersByTime(TOOLTIP.delayMs));
    expect(tip()).toHaveTextContent('Bold');

    // Within the skip delay the next tooltip opens at once.
    leave(bold);
    act(() => vi.advanceTimersByTime(TOOLTIP.skipDelayMs - 50));
    hover(italic);
    expect(tip()).toHaveTextContent('Italic');

    // After the skip delay has passed, the full delay applies again.
    leave(italic);
    act(() => vi.advanceTimersByTime(TOOLTIP.skipDelayMs + 1));
    hover(bold);
    act(() => vi.advanceTimersByTime(TOOLTIP.delayMs - 1));
    expect(tip()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(tip()).toHaveTextContent('Bold');
  });
});
