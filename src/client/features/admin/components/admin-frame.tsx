/** Frame shared by the admin pages: heading, a way back to the hub, and the loading / error states. */
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from '@client/lib/router';
import { ArrowLeft, MoveHorizontal } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { errorText } from '@client/lib/api-errors';

export interface AdminFrameProps {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}

export function AdminFrame({ title, intro, actions, children }: AdminFrameProps) {
  useDocumentTitle(title);
  return (
    <PageShell width="wide" eyebrow="Admin" title={title} intro={intro}>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <Link to="/admin" className={buttonClasses('ghost', 'sm')}>
          <ArrowLeft aria-hidden="true" />
          Admin area
        </Link>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </PageShell>
  );
}

/** Loading skeleton, error with Try Again, or the content. */
export function QueryState({ query, children }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }; children: () => ReactNode }) {
  if (query.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <span role="status" className="sr-only">Loading</span>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-12" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="grid max-w-xl gap-3">
        <Alert variant="destructive" title="Could not load this page">
          {errorText(query.error)}
        </Alert>
        <Button className="w-fit" onClick={() => query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  return <>{children()}</>;
}

export const tableClasses = {
  // `relative`: the screen-reader-only header text is positioned inside the scrolling frame, so it cannot
  // stretch the page beyond the screen.
  wrap: 'relative overflow-x-auto rounded-xl border border-ink-700 bg-ink-900/80 shadow-xl shadow-black/30',
  table: 'w-full min-w-[640px] text-left text-sm',
  head: 'border-b border-ink-700 text-xs tracking-wider text-bone-300 uppercase',
  th: 'px-4 py-3 font-semibold',
  row: 'border-b border-ink-800 last:border-0 align-top',
  td: 'px-4 py-3 text-bone-100',
};

/**
 * Whether a scrolling frame has more to show to the right. Tables wider than a phone scroll inside
 * their frame (never the page); a visible hint and a fading edge say so.
 */
function useSideScroll() {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ overflows: false, more: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const update = () => {
      const overflows = el.scrollWidth > el.clientWidth + 1;
      const more = overflows && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setState((s) => (s.overflows === overflows && s.more === more ? s : { overflows, more }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);
  return { ref, ...state };
}

/**
 * The admin list table: a scrolling frame, an optional caption for screen readers, and column headers.
 * A column written as `{ hidden: 'Actions' }` has a header only screen readers hear. On a narrow screen
 * the table scrolls sideways inside its frame, which keyboard users can focus and scroll too.
 */
export function DataTable({
  columns,
  caption,
  children,
}: {
  columns: Array<string | { hidden: string }>;
  caption?: string;
  children: ReactNode;
}) {
  const side = useSideScroll();
  return (
    // min-w-0: inside a grid or flex parent the frame would otherwise grow to the table's width and push
    // the whole page sideways on a phone, instead of scrolling on its own.
    <div className="min-w-0">
      {side.overflows ? (
        <p className="mb-2 flex items-center gap-2 text-xs text-bone-300">
          <MoveHorizontal aria-hidden="true" className="size-4 text-blood-400" />
          Scroll sideways to see every column
        </p>
      ) : null}
      <div className="relative">
        <div
          ref={side.ref}
          className={tableClasses.wrap}
          role={side.overflows ? 'region' : undefined}
          aria-label={side.overflows ? (caption ?? 'Table') : undefined}
          tabIndex={side.overflows ? 0 : undefined}
        >
          <table className={tableClasses.table}>
            {caption ? <caption className="sr-only">{caption}</caption> : null}
            <thead className={tableClasses.head}>
              <tr>
                {columns.map((column) =>
                  typeof column === 'string' ? (
                    <th key={column} scope="col" className={tableClasses.th}>
                      {column}
                    </th>
                  ) : (
                    <th key={column.hidden} scope="col" className={tableClasses.th}>
                      <span className="sr-only">{column.hidden}</span>
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
        {side.more ? (
          <div aria-hidden="true" className="pointer-events-none absolute inset-y-px right-px w-12 rounded-r-xl bg-gradient-to-l from-ink-950 to-transparent" />
        ) : null}
      </div>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed border-ink-600 p-8 text-center text-bone-300">{children}</p>;
}
