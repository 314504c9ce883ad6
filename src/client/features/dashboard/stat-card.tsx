import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card } from '@client/components/ui/card';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  icon?: LucideIcon;
}

/** One figure with its label; the label is the accessible name of the group. */
export function StatCard({ label, value, detail, icon: Icon }: StatCardProps) {
  return (
    <Card className="p-5" role="group" aria-label={label}>
      <div className="flex items-start justify-between gap-3">
        <p className="text-xs font-semibold tracking-[0.2em] text-bone-300 uppercase">{label}</p>
        {Icon ? <Icon aria-hidden="true" className="size-5 text-blood-400" /> : null}
      </div>
      <p className="mt-3 font-display text-3xl font-semibold text-bone-50 tabular-nums">{value}</p>
      {detail ? <p className="mt-1 text-sm text-bone-300">{detail}</p> : null}
    </Card>
  );
}

/** A titled panel for lists and charts inside a tab. */
export function Panel({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="font-display text-xl font-semibold text-bone-50">{title}</h2>
      {description ? <p className="mt-1 text-sm text-bone-300">{description}</p> : null}
      <div className="mt-5">{children}</div>
    </Card>
  );
}

/** A labelled horizontal bar: the width is the share, the text says the same for screen readers. */
export function Meter({ label, value, percent }: { label: ReactNode; value: ReactNode; percent: number }) {
  return (
    <div>
      <div className="mb-1 flex justify-between gap-3 text-sm">
        <span className="text-bone-100">{label}</span>
        <span className="text-bone-300 tabular-nums">{value}</span>
      </div>
      <div className="h-2 overflow-hidden rounded-full bg-ink-700" aria-hidden="true">
        <div className="h-full rounded-full bg-blood-500" style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
      </div>
    </div>
  );
}
