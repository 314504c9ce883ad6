/**
 * The reader's controls, shared by the EPUB and PDF readers: contents (the current chapter marked),
 * text size (80-200 %), light / sepia / dark, paginated or scrolled, "Previous page" / "Next page" and
 * the progress as a percentage. Both bars fit a 320 px phone; which panel is open is the reader's state
 * (a tap on the page closes it), and Escape closes it too.
 */
import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { ArrowLeft, List, Minus, MoveLeft, MoveRight, Plus, Settings2 } from 'lucide-react';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';
import { cn } from '@client/lib/cn';
import { percent } from '../format';
import { FONT_MAX, FONT_MIN, FONT_STEP, type ReaderPrefs, type Theme } from '../prefs';

export interface TocEntry {
  label: string;
  target: string;
  depth: number;
}

const THEMES: Array<{ id: Theme; label: string }> = [
  { id: 'light', label: 'Light' },
  { id: 'sepia', label: 'Sepia' },
  { id: 'dark', label: 'Dark' },
];

function Choice<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  options: Array<{ id: T; label: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-bone-200">{props.legend}</legend>
      <div className="flex flex-wrap gap-2">
        {props.options.map((o) => (
          <label
            key={o.id}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blood-400',
              props.value === o.id ? 'border-blood-400 bg-blood-900/30 text-bone-50' : 'border-ink-600 text-bone-200',
            )}
          >
            <input
              type="radio"
              name={props.name}
              value={o.id}
              checked={props.value === o.id}
              onChange={() => props.onChange(o.id)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export type ReaderPanel = 'toc' | 'settings' | null;

export interface ReaderBarProps {
  title: string;
  backTo: { href: string; label: string };
  toc: TocEntry[];
  /** The target of the contents entry the reader is in, marked as the current one. */
  currentTarget?: string | null;
  onTocSelect: (target: string) => void;
  /** The open panel, if any. */
  panel: ReaderPanel;
  onPanelChange: (panel: ReaderPanel) => void;
  prefs: ReaderPrefs;
  onPrefsChange: (prefs: ReaderPrefs) => void;
  /** Text size is "zoom" for a PDF. */
  sizeLabel?: string;
  /** What the page adds before Contents (e.g. "Listen from here"). */
  actions?: ReactNode;
}

/** Top bar: back, title, and the Contents and Reading settings panels. */
export function ReaderBar(props: ReaderBarProps) {
  const { title, backTo, toc, currentTarget, onTocSelect, panel: open, onPanelChange, prefs, onPrefsChange, sizeLabel = 'Text size', actions } = props;
  const id = useId();
  const toggles = { toc: useRef<HTMLButtonElement>(null), settings: useRef<HTMLButtonElement>(null) };
  const tocList = useRef<HTMLOListElement>(null);
  const toggle = (panel: 'toc' | 'settings') => onPanelChange(open === panel ? null : panel);
  const current = currentTarget ? toc.findIndex((entry) => entry.target === currentTarget) : -1;

  // Escape closes the open panel and gives the focus back to the button that opened it.
  const closeRef = useRef(() => {});
  closeRef.current = () => {
    if (!open) return;
    onPanelChange(null);
    toggles[open].current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      closeRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  // Opening the contents shows where the reader is, even in a long list.
  useEffect(() => {
    if (open === 'toc') tocList.current?.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest' });
  }, [open]);

  const setSize = (fontSize: number) => onPrefsChange({ ...prefs, fontSize: Math.min(FONT_MAX, Math.max(FONT_MIN, fontSize)) });

  return (
    <div className="relative border-b border-ink-800 bg-ink-950">
      <div className="mx-auto flex max-w-6xl items-center gap-2 px-3 py-2 sm:px-4">
        <Link to={backTo.href} className={buttonClasses('ghost', 'sm', 'shrink-0')} aria-label={backTo.label}>
          <ArrowLeft aria-hidden="true" />
          <span className="hidden sm:inline">{backTo.label}</span>
        </Link>
        <h1 className="min-w-0 flex-1 truncate font-display text-base font-semibold text-bone-50 sm:text-lg">{title}</h1>
        {actions}
        <Button ref={toggles.toc} variant="outline" size="sm" aria-expanded={open === 'toc'} aria-controls={`${id}-toc`} onClick={() => toggle('toc')}>
          <List aria-hidden="true" /> Contents
        </Button>
        <Button
          ref={toggles.settings}
          variant="outline"
          size="sm"
          aria-expanded={open === 'settings'}
          aria-controls={`${id}-settings`}
          onClick={() => toggle('settings')}
          aria-label="Reading settings"
        >
          <Settings2 aria-hidden="true" />
          <span className="hidden sm:inline">Settings</span>
        </Button>
      </div>
      <Panel id={`${id}-toc`} open={open === 'toc'} label="Contents">
        {toc.length === 0 ? (
          <p className="text-sm text-bone-300">This book has no table of contents.</p>
        ) : (
          <ol ref={tocList} className="grid max-h-[50dvh] gap-1 overflow-y-auto">
            {toc.map((entry, i) => (
              <li key={`${entry.target}-${i}`} style={{ paddingLeft: `${entry.depth}rem` }}>
                <button
                  type="button"
                  aria-current={i === current ? 'true' : undefined}
                  className={cn(
                    'flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none',
                    i === current ? 'bg-blood-900/40 font-medium text-bone-50' : 'text-bone-100 hover:bg-ink-800',
                  )}
                  onClick={() => {
                    onPanelChange(null);
                    onTocSelect(entry.target);
                  }}
                >
                  <span className="min-w-0 flex-1">{entry.label}</span>
                  {i === current ? (
                    // aria-current says it to assistive technology; this says it to the eye.
                    <span aria-hidden="true" className="shrink-0 text-xs font-normal text-blood-300">
                      You are here
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ol>
        )}
      </Panel>
      <Panel id={`${id}-settings`} open={open === 'settings'} label="Reading settings">
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <p className="mb-2 text-sm font-medium text-bone-200" id={`${id}-size`}>
              {sizeLabel}
            </p>
            <div className="flex items-center gap-2" role="group" aria-labelledby={`${id}-size`}>
              <Button
                variant="outline"
                size="icon"
                aria-label={`Smaller ${sizeLabel.toLowerCase()}`}
                disabled={prefs.fontSize <= FONT_MIN}
                onClick={() => setSize(prefs.fontSize - FONT_STEP)}
              >
                <Minus aria-hidden="true" />
              </Button>
              <output className="w-14 text-center text-sm text-bone-50" aria-live="polite">
                {prefs.fontSize}%
              </output>
              <Button
                variant="outline"
                size="icon"
                aria-label={`Larger ${sizeLabel.toLowerCase()}`}
                disabled={prefs.fontSize >= FONT_MAX}
                onClick={() => setSize(prefs.fontSize + FONT_STEP)}
              >
                <Plus aria-hidden="true" />
              </Button>
            </div>
          </div>
          <Choice legend="Theme" name={`${id}-theme`} value={prefs.theme} options={THEMES} onChange={(theme) => onPrefsChange({ ...prefs, theme })} />
          <Choice
            legend="Layout"
            name={`${id}-flow`}
            value={prefs.flow}
            options={[
              { id: 'paginated', label: 'Pages' },
              { id: 'scrolled', label: 'Scroll' },
            ]}
            onChange={(flow) => onPrefsChange({ ...prefs, flow })}
          />
        </div>
      </Panel>
    </div>
  );
}

function Panel({ id, open, label, children }: { id: string; open: boolean; label: string; children: ReactNode }) {
  return (
    <section
      id={id}
      aria-label={label}
      hidden={!open}
      className="absolute inset-x-0 top-full z-20 border-b border-ink-700 bg-ink-900 shadow-2xl shadow-black/60"
    >
      <div className="mx-auto max-w-6xl px-4 py-4">{children}</div>
    </section>
  );
}

export interface PageNavProps {
  progress: number | null;
  onPrev: () => void;
  onNext: () => void;
  atStart?: boolean;
  atEnd?: boolean;
  /** Shown in place of the percentage when there is one (e.g. "Page 2 of 3"). */
  detail?: string;
}

/**
 * Bottom bar: Previous page, where the reader is, Next page. On a phone the buttons read "Previous" and
 * "Next" (their names stay "Previous page" / "Next page") and the middle gives way, so the bar fits 320 px.
 */
export function PageNav({ progress, onPrev, onNext, atStart, atEnd, detail }: PageNavProps) {
  return (
    <div
      data-testid="page-nav"
      className="mx-auto grid w-full max-w-6xl grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-2 px-3 py-2 sm:gap-3 sm:px-4"
    >
      <Button variant="outline" size="md" className="shrink-0" onClick={onPrev} disabled={atStart} aria-label="Previous page">
        <MoveLeft aria-hidden="true" />
        <span>
          Previous<span className="hidden sm:inline"> page</span>
        </span>
      </Button>
      <p className="min-w-0 text-center text-sm text-bone-200" aria-live="polite" aria-atomic="true">
        <span className="sr-only">Progress: </span>
        <span data-testid="reading-progress">{progress === null ? '…' : percent(progress)}</span>
        {detail ? <span className="block truncate text-xs text-bone-400">{detail}</span> : null}
      </p>
      <Button variant="outline" size="md" className="shrink-0" onClick={onNext} disabled={atEnd} aria-label="Next page">
        <span>
          Next<span className="hidden sm:inline"> page</span>
        </span>
        <MoveRight aria-hidden="true" />
      </Button>
    </div>
  );
}
