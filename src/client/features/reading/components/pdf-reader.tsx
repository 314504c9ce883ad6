/**
 * The PDF reader: pdf.js draws each page on a canvas (its worker is a separate file of this site, so the
 * CSP needs nothing new), with the page's text beside it for screen readers. Pages one at a time or all
 * in a scroll; the zoom is the "text size"; themes tint the page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { Spinner } from '@client/components/ui/spinner';
import { type ReaderPrefs, THEME_COLORS } from '../prefs';
import { tapZone } from '../tap-zones';
import { useReaderChrome } from '../use-reader-chrome';
import { PageNav, ReaderBar, type ReaderBarProps, type TocEntry } from './reader-controls';

export interface PdfLocation {
  page: number;
  pages: number;
}

interface Props extends Pick<ReaderBarProps, 'title' | 'backTo'> {
  file: Blob;
  startAt: string | null;
  prefs: ReaderPrefs;
  onPrefsChange: (prefs: ReaderPrefs) => void;
  onLocation: (location: PdfLocation) => void;
}

const FILTERS: Record<ReaderPrefs['theme'], string> = {
  light: 'none',
  sepia: 'sepia(0.45) saturate(1.1) brightness(0.97)',
  dark: 'invert(0.92) hue-rotate(180deg)',
};

async function loadPdf(file: Blob): Promise<PDFDocumentProxy> {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  // No eval (the CSP forbids it anyway) and no font or script fetching from elsewhere.
  return pdfjs.getDocument({ data: new Uint8Array(await file.arrayBuffer()), isEvalSupported: false, enableXfa: false }).promise;
}

async function outlineOf(doc: PDFDocumentProxy): Promise<TocEntry[]> {
  const outline = await doc.getOutline().catch(() => null);
  const entries: TocEntry[] = [];
  const walk = async (items: NonNullable<typeof outline>, depth: number) => {
    for (const item of items) {
      try {
        const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
        const ref = dest?.[0];
        const index = ref && typeof ref === 'object' ? await doc.getPageIndex(ref) : typeof ref === 'number' ? ref : null;
        if (index !== null) entries.push({ label: item.title, target: String(index + 1), depth });
      } catch {
        // An outline entry pointing nowhere is left out.
      }
      if (item.items?.length) await walk(item.items, depth + 1);
    }
  };
  if (outline?.length) await walk(outline, 0);
  if (entries.length) return entries;
  return Array.from({ length: doc.numPages }, (_, i) => ({ label: `Page ${i + 1}`, target: String(i + 1), depth: 0 }));
}

/** The outline entry the reader is in: the last one starting at or before the page. */
export function currentEntry(toc: TocEntry[], page: number): string | null {
  let best: TocEntry | null = null;
  for (const entry of toc) {
    const start = Number(entry.target);
    if (start <= page && (!best || start >= Number(best.target))) best = entry;
  }
  return best?.target ?? null;
}

/** One page: canvas drawn at the given width (CSS px), its text kept for assistive technology. */
function PdfPage({ doc, number, width, height, filter }: { doc: PDFDocumentProxy; number: number; width: number; height?: number; filter: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    (async () => {
      const page = await doc.getPage(number);
      if (cancelled || !canvas.current) return;
      const base = page.getViewport({ scale: 1 });
      const scale = height ? Math.min(width / base.width, height / base.height) : width / base.width;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const el = canvas.current;
      el.width = Math.floor(viewport.width * ratio);
      el.height = Math.floor(viewport.height * ratio);
      el.style.width = `${Math.floor(viewport.width)}px`;
      el.style.height = `${Math.floor(viewport.height)}px`;
      task = page.render({ canvas: el, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      await task.promise.catch(() => undefined);
      const content = await page.getTextContent();
      if (!cancelled) setText(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
    })().catch((error) => console.error('Could not draw the page', error));
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, number, width, height]);
  return (
    <figure className="m-0" aria-label={`Page ${number}`}>
      {/* The tint filters only the canvas: on the frame it would turn the shadow into a glow. */}
      <div className="mx-auto w-fit shadow-xl shadow-black/40">
        <canvas ref={canvas} aria-hidden="true" className="block bg-white" style={{ filter }} />
      </div>
      <figcaption className="sr-only">{text}</figcaption>
    </figure>
  );
}

export function PdfReader({ file, startAt, prefs, onPrefsChange, onLocation, title, backTo }: Props) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [page, setPage] = useState(() => Math.max(1, Number.parseInt(startAt ?? '1', 10) || 1));
  const area = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const report = useRef(onLocation);
  report.current = onLocation;

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    loadPdf(file)
      .then(async (d) => {
        loaded = d;
        if (cancelled) return;
        setDoc(d);
        setPage((p) => Math.min(p, d.numPages));
        setToc(await outlineOf(d));
      })
      .catch((error) => {
        console.error('Could not open the PDF', error);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [file]);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) =>
      setSize({ width: Math.floor(entry.contentRect.width), height: Math.floor(entry.contentRect.height) }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (doc) report.current({ page, pages: doc.numPages });
  }, [doc, page]);

  // Switching to the scrolled layout (or opening in it) shows the page the reader is on.
  const pageRef = useRef(page);
  pageRef.current = page;
  useEffect(() => {
    if (prefs.flow !== 'scrolled' || !doc || !size.width) return;
    const frame = requestAnimationFrame(() =>
      area.current?.querySelector(`[data-page="${pageRef.current}"]`)?.scrollIntoView({ block: 'start' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [prefs.flow, doc, size.width]);

  const pages = doc?.numPages ?? 0;
  const go = useCallback(
    (target: number) => {
      if (!pages) return;
      const next = Math.min(pages, Math.max(1, target));
      setPage(next);
      if (prefs.flow === 'scrolled') area.current?.querySelector(`[data-page="${next}"]`)?.scrollIntoView({ block: 'start' });
    },
    [pages, prefs.flow],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const t = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (event.key === 'ArrowRight') go(page + 1);
      else if (event.key === 'ArrowLeft') go(page - 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, page]);

  const chrome = useReaderChrome();
  // Swipe left / right turns the page in the paginated layout.
  const touch = useRef<{ x: number; y: number } | null>(null);
  const zoom = prefs.fontSize / 100;
  const filter = FILTERS[prefs.theme];
  const pageWidth = Math.max(200, (size.width - 32) * zoom);

  return (
    <div className="flex h-full flex-col">
      {chrome.shown ? (
        <ReaderBar
          title={title}
          backTo={backTo}
          toc={toc}
          currentTarget={currentEntry(toc, page)}
          onTocSelect={(target) => go(Number(target))}
          panel={chrome.panel}
          onPanelChange={chrome.setPanel}
          prefs={prefs}
          onPrefsChange={onPrefsChange}
          sizeLabel="Zoom"
        />
      ) : null}
      <div
        ref={area}
        className="relative min-h-0 flex-1 overflow-auto p-4"
        style={{ background: THEME_COLORS[prefs.theme].background }}
        onScroll={(e) => {
          if (prefs.flow !== 'scrolled') return;
          const top = e.currentTarget.getBoundingClientRect().top;
          const visible = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-page]')].find(
            (el) => el.getBoundingClientRect().bottom > top + 40,
          );
          if (visible) setPage(Number(visible.dataset.page));
        }}
        // A tap on the page's edges turns it; the middle shows or hides the bars.
        onClick={(e) => {
          if (e.button !== 0) return;
          const box = e.currentTarget.getBoundingClientRect();
          chrome.onTap(tapZone(e.clientX, box.left, box.width), (side) => go(side === 'left' ? page - 1 : page + 1));
        }}
        onTouchStart={(e) => (touch.current = { x: e.touches[0].clientX, y: e.touches[0].clientY })}
        onTouchEnd={(e) => {
          const start = touch.current;
          touch.current = null;
          if (!start || prefs.flow === 'scrolled') return;
          const dx = e.changedTouches[0].clientX - start.x;
          const dy = e.changedTouches[0].clientY - start.y;
          if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy) * 1.5) go(dx < 0 ? page + 1 : page - 1);
        }}
      >
        {failed ? (
          <p role="alert" className="rounded-md bg-ink-900 p-4 text-center text-bone-100">
            This PDF could not be opened. Please try again, or download it from your library.
          </p>
        ) : !doc || !size.width ? (
          <div className="grid h-full place-items-center">
            <Spinner label="Opening the PDF" showLabel />
          </div>
        ) : prefs.flow === 'scrolled' ? (
          <div className="grid gap-6">
            {Array.from({ length: pages }, (_, i) => (
              <div key={i} data-page={i + 1}>
                <PdfPage doc={doc} number={i + 1} width={pageWidth} filter={filter} />
              </div>
            ))}
          </div>
        ) : (
          <PdfPage doc={doc} number={page} width={pageWidth} height={zoom <= 1 ? (size.height - 32) * zoom : undefined} filter={filter} />
        )}
      </div>
      {chrome.shown ? (
        <PageNav
          progress={pages ? page / pages : null}
          detail={pages ? `Page ${page} of ${pages}` : undefined}
          onPrev={() => go(page - 1)}
          onNext={() => go(page + 1)}
          atStart={page <= 1}
          atEnd={page >= pages}
        />
      ) : null}
    </div>
  );
}
