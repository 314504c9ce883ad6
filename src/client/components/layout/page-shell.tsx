/** Common page frame: width, spacing and a heading block, so every page starts the same way. */
import type { ReactNode } from 'react';
import { cn } from '@client/lib/cn';

export interface PageShellProps {
  title: ReactNode;
  eyebrow?: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
  width?: 'narrow' | 'default' | 'wide';
}

const widths = { narrow: 'max-w-xl', default: 'max-w-4xl', wide: 'max-w-7xl' } as const;

export function PageShell({ title, eyebrow, intro, children, width = 'default' }: PageShellProps) {
  return (
    <div className={cn('mx-auto w-full px-4 py-14 sm:px-6 md:py-20', widths[width])}>
      <header className="mb-10">
        {eyebrow ? (
          <p className="mb-3 text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="font-display text-4xl font-semibold tracking-tight text-bone-50 md:text-5xl">{title}</h1>
        {intro ? <div className="mt-4 max-w-2xl text-lg leading-relaxed text-bone-300">{intro}</div> : null}
      </header>
      {children}
    </div>
  );
}
