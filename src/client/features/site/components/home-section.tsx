/** The frame every home section shares: anchor id, eyebrow, heading and a calm vertical rhythm. */
import type { ReactNode } from 'react';
import { cn } from '@client/lib/cn';

export interface HomeSectionProps {
  id: string;
  eyebrow: string;
  title: ReactNode;
  intro?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Alternate background band, to separate neighbouring sections. */
  band?: boolean;
}

export function HomeSection({ id, eyebrow, title, intro, actions, children, className, band }: HomeSectionProps) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={cn('relative border-b border-ink-800/70', band && 'bg-ink-900/50', className)}
    >
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 md:py-24">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="max-w-3xl">
            <p className="mb-3 flex items-center gap-3 text-xs font-semibold tracking-[0.3em] text-blood-400 uppercase">
              <span aria-hidden="true" className="h-px w-8 bg-blood-500" />
              {eyebrow}
            </p>
            <h2 id={`${id}-title`} className="font-display text-3xl font-semibold tracking-tight text-bone-50 md:text-5xl">
              {title}
            </h2>
            {intro ? <p className="mt-4 text-lg leading-relaxed text-bone-300">{intro}</p> : null}
          </div>
          {actions}
        </div>
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
