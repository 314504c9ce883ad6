/**
 * The EPUB reader: foliate-js renders the book, page by page, in a sandboxed same-origin frame where
 * nothing in the book can run (see the build's foliate sandbox plugin and the site's CSP). This
 * component only drives it: open, go to the saved place, turn pages (buttons, keys, swipes, and taps on
 * the page's edges, heard inside the frame as well as on its margins), apply the reader's settings and
 * report where the reader is.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FoliateView, FoliateTocItem } from 'foliate-js/view.js';
import { Spinner } from '@client/components/ui/spinner';
import { type ReaderPrefs, THEME_COLORS } from '../prefs';
import { tapZone } from '../tap-zones';
import { useReaderChrome } from '../use-reader-chrome';
import { PageNav, ReaderBar, type ReaderBarProps, type TocEntry } from './reader-controls';

/**
 * Starts loading the renderer's modules at once and in parallel (foliate-js would otherwise fetch them
 * one after another, after the book has arrived). The page calls this while it fetches the book.
 */
export function preloadEpubReader(): Promise<unknown> {
  return Promise.all([
    import('foliate-js/view.js'),
    import('foliate-js/epub.js'),
    import('foliate-js/paginator.js'),
    import('foliate-js/vendor/zip.js'),
  ]);
}

export interface EpubLocation {
  cfi: string;
  fraction: number;
  chapter: string | null;
  /** The contents entry the reader is in (its target), if the book's contents name it. */
  chapterTarget: string | null;
  /** The spine section on screen (0 = the first), and every section's path in the archive, in order. */
  section: number;
  spine: readonly string[];
  atEnd: boolean;
}

interface Props extends Pick<ReaderBarProps, 'title' | 'backTo'> {
  file: Blob;
  /** A saved locator (CFI), or a chapter file's path to open at its start (from "Read from here"). */
  startAt: string | null;
  prefs: ReaderPrefs;
  onPrefsChange: (prefs: ReaderPrefs) => void;
  onLocation: (location: EpubLocation) => void;
  /** A link in the book leaving it (e.g. the sample's "Buy to keep reading"). */
  onExternalLink: (href: string) => void;
  /** Shown under the page when the reader reaches the last page. */
  endNote?: React.ReactNode;
  /** Buttons the page adds to the top bar (e.g. "Listen from here"). */
  barActions?: React.ReactNode;
}

function flattenToc(items: FoliateTocItem[] | undefined, depth = 0): TocEntry[] {
  return (items ?? []).flatMap((item) => [
    { label: item.label?.trim() || 'Untitled', target: item.href, depth },
    ...flattenToc(item.subitems, depth + 1),
  ]);
}

function bookStyles(prefs: ReaderPrefs): string {
  const c = THEME_COLORS[prefs.theme];
  return `
    /* The site's own colour scheme: a frame whose scheme differs from its page gets an opaque backdrop. */
    html { color-scheme: dark; font-size: ${prefs.fontSize}% !important; }
    /* Transparent: the page shows the reader's theme colour behind it, which changes without a reload. */
    html, body { background: transparent !important; color: ${c.text} !important; }
    body * { color: inherit !important; background-color: transparent !important; }
    a:any-link, a:any-link * { color: ${c.link} !important; }
    img, svg { max-width: 100%; }
  `;
}

/** Only web and mail links may leave a book; `javascript:`, `data:` and the like are dropped. */
export function safeLink(href: string): string | null {
  try {
    const url = new URL(href, window.location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.toString() : null;
  } catch {
    return null;
  }
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function EpubReader({ file, startAt, prefs, onPrefsChange, onLocation, onExternalLink, endNote, barActions, title, backTo }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<FoliateView | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [location, setLocation] = useState<EpubLocation | null>(null);
  const callbacks = useRef({ onLocation, onExternalLink });
  callbacks.current = { onLocation, onExternalLink };
  const prefsRef = useRef(prefs);
  prefsRef.current = prefs;

  // foliate-js ignores a turn asked for while the previous one settles (about 100 ms); queueing them
  // means no press of a button or key is lost. Until the queue is done the reader is busy: a turn into
  // the next chapter passes through the end of the current one, and that place is not announced.
  const turns = useRef<Promise<unknown>>(Promise.resolve());
  const [turning, setTurning] = useState(0);
  const turn = useCallback((go: (view: FoliateView) => Promise<unknown>) => {
    setTurning((n) => n + 1);
    turns.current = turns.current
      .then(() => (viewRef.current ? go(viewRef.current) : undefined))
      .catch(() => undefined)
      .finally(() => setTurning((n) => n - 1));
  }, []);
  const next = useCallback(() => turn((v) => v.next()), [turn]);
  const prev = useCallback(() => turn((v) => v.prev()), [turn]);

  const chrome = useReaderChrome();
  const { onTap } = chrome;
  // A tap at `x` (this window's pixels) on the page. The edges turn towards their side: goLeft / goRight
  // follow the book's reading direction, so a right-to-left book's left edge moves on.
  const tapAt = useCallback(
    (x: number) => {
      const box = host.current?.getBoundingClientRect();
      if (!box) return;
      onTap(tapZone(x, box.left, box.width), (side) => turn((v) => (side === 'left' ? v.goLeft() : v.goRight())));
    },
    [onTap, turn],
  );
  const tapRef = useRef(tapAt);
  tapRef.current = tapAt;

  useEffect(() => {
    let cancelled = false;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === 'ArrowRight' || event.key === 'PageDown') {
        event.preventDefault();
        turn((v) => v.goRight());
      } else if (event.key === 'ArrowLeft' || event.key === 'PageUp') {
        event.preventDefault();
        turn((v) => v.goLeft());
      }
    };
    // A click inside a page: its x is in the frame's own pixels. Link clicks (foliate-js has already
    // taken them) and the end of a text selection are not taps.
    const onPageClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      const doc = event.currentTarget as Document;
      if (doc.getSelection()?.isCollapsed === false) return;
      const frame = doc.defaultView?.frameElement;
      tapRef.current((frame ? frame.getBoundingClientRect().left : 0) + event.clientX);
    };
    // A click on the page's margins, outside the frame.
    const onMarginClick = (event: MouseEvent) => {
      if (!event.defaultPrevented && event.button === 0) tapRef.current(event.clientX);
    };
    const hostEl = host.current;
    hostEl?.addEventListener('click', onMarginClick);
    window.addEventListener('keydown', onKey);
    (async () => {
      try {
        await preloadEpubReader();
        if (cancelled || !host.current) return;
        const view = document.createElement('foliate-view') as FoliateView;
        view.setAttribute('aria-label', 'Book page');
        view.className = 'block h-full';
        host.current.replaceChildren(view as unknown as Node);
        viewRef.current = view;
        view.addEventListener('load', (e) => {
          e.detail.doc.addEventListener('keydown', onKey);
          e.detail.doc.addEventListener('click', onPageClick);
        });
        view.addEventListener('relocate', (e) => {
          const { fraction, cfi, tocItem, section } = e.detail;
          const atEnd = Boolean(section && section.current >= section.total - 1 && view.renderer.atEnd);
          const loc = {
            cfi,
            fraction: fraction ?? 0,
            chapter: tocItem?.label?.trim() ?? null,
            chapterTarget: tocItem?.href ?? null,
            section: section?.current ?? 0,
            spine: view.book.sections.map((s) => s.id),
            atEnd,
          };
          setLocation(loc);
          callbacks.current.onLocation(loc);
        });
        view.addEventListener('external-link', (e) => {
          // Never a new window from inside a book: the page decides where such a link may go.
          e.preventDefault();
          const url = safeLink(e.detail.href);
          if (url) callbacks.current.onExternalLink(url);
        });
        await view.open(new File([file], 'book.epub', { type: 'application/epub+zip' }));
        if (cancelled) return;
        applyLayout(view, prefsRef.current);
        setToc(flattenToc(view.book.toc));
        await view.init({ lastLocation: startAt ?? undefined, showTextStart: startAt === null });
        // User timing: the page-weight bench reports the time to the first rendered page.
        performance.mark('reader:first-page');
        if (!cancelled) setReady(true);
      } catch (error) {
        console.error('Could not open the book', error);
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      hostEl?.removeEventListener('click', onMarginClick);
      window.removeEventListener('keydown', onKey);
      viewRef.current?.close();
      viewRef.current?.remove();
      viewRef.current = null;
    };
    // The book is opened once per file; settings changes are applied below without reopening.
  }, [file]);

  useEffect(() => {
    if (viewRef.current?.renderer) applyLayout(viewRef.current, prefs);
  }, [prefs]);

  const colors = THEME_COLORS[prefs.theme];
  return (
    <div className="flex h-full flex-col" data-locator={location?.cfi ?? ''} aria-busy={turning > 0 || undefined}>
      {chrome.shown ? (
        <ReaderBar
          title={title}
          backTo={backTo}
          toc={toc}
          currentTarget={location?.chapterTarget}
          onTocSelect={(target) => void viewRef.current?.goTo(target)}
          panel={chrome.panel}
          onPanelChange={chrome.setPanel}
          prefs={prefs}
          onPrefsChange={onPrefsChange}
          actions={barActions}
        />
      ) : null}
      <div className="relative min-h-0 flex-1" style={{ background: colors.background }}>
        <div ref={host} className="absolute inset-0" />
        {!ready && !failed ? (
          <div className="absolute inset-0 grid place-items-center bg-ink-950/40">
            <Spinner label="Opening the book" showLabel />
          </div>
        ) : null}
        {failed ? (
          <p role="alert" className="absolute inset-x-4 top-8 rounded-md bg-ink-900 p-4 text-center text-bone-100">
            This book could not be opened. Please try again, or download it from your library.
          </p>
        ) : null}
      </div>
      {location?.atEnd && endNote ? <div className="border-t border-ink-800 bg-ink-900">{endNote}</div> : null}
      {chrome.shown ? (
        <PageNav
          progress={location ? location.fraction : null}
          detail={location?.chapter ?? undefined}
          onPrev={prev}
          onNext={next}
          // Until the first page is laid out a turn would be lost.
          atStart={!ready}
          atEnd={!ready}
        />
      ) : null}
    </div>
  );
}

function applyLayout(view: FoliateView, prefs: ReaderPrefs) {
  const r = view.renderer;
  r.setAttribute('flow', prefs.flow);
  r.setAttribute('margin', '24px');
  r.setAttribute('gap', '6%');
  r.setAttribute('max-inline-size', '680px');
  r.setAttribute('max-column-count', '1');
  r.setStyles?.(bookStyles(prefs));
}
