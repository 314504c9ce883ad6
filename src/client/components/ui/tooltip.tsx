/**
 * Radix Tooltip with the timings of docs/PRODUCT.md, Constants (700 ms delay, 300 ms skip delay).
 *
 * There is deliberately no app-wide tooltip provider: it would pull Radix Tooltip and its positioning
 * engine into the first-paint bundle of every page. Each Tooltip brings its own provider instead, and a
 * TooltipGroup shares one provider between neighbours (a toolbar) so the skip delay applies when the
 * pointer moves from one to the next.
 */
import { createContext, useContext } from 'react';
import type { ReactElement, ReactNode } from 'react';
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { TOOLTIP } from '@shared/constants';
import { cn } from '@client/lib/cn';

const InGroup = createContext(false);

function TimedProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP.delayMs} skipDelayDuration={TOOLTIP.skipDelayMs}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/** One provider for several tooltips that sit side by side. */
export function TooltipGroup({ children }: { children: ReactNode }) {
  return (
    <TimedProvider>
      <InGroup.Provider value>{children}</InGroup.Provider>
    </TimedProvider>
  );
}

export interface TooltipProps {
  /** The tooltip text. */
  content: ReactNode;
  /** One focusable element that forwards its ref (a Button, a link). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  className?: string;
}

export function Tooltip({ content, children, side = 'top', className }: TooltipProps) {
  const grouped = useContext(InGroup);
  const tooltip = (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={6}
          className={cn(
            'z-50 rounded-md border border-ink-600 bg-ink-800 px-2.5 py-1.5 text-xs text-bone-100 shadow-xl shadow-black/60',
            className,
          )}
        >
          {content}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
  return grouped ? tooltip : <TimedProvider>{tooltip}</TimedProvider>;
}
