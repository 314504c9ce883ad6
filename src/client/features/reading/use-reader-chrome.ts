/**
 * The reader's chrome (its top and bottom bars and their panels) as one piece of state, shared by the
 * EPUB and PDF readers. A tap on the page's edges turns the page and a tap in the middle hides or shows
 * the bars, so the book can have the whole screen; a tap while a panel is open only closes the panel.
 * Escape brings hidden bars back, so a keyboard never loses them.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReaderPanel } from './components/reader-controls';
import type { TapZone } from './tap-zones';

export interface ReaderChrome {
  panel: ReaderPanel;
  setPanel: (panel: ReaderPanel) => void;
  /** Whether the bars are shown. */
  shown: boolean;
  /** Handles a tap on the page; `turn` turns towards the tapped side. */
  onTap: (zone: TapZone, turn: (side: 'left' | 'right') => void) => void;
}

export function useReaderChrome(): ReaderChrome {
  const [panel, setPanel] = useState<ReaderPanel>(null);
  const [shown, setShown] = useState(true);
  // Taps arrive from listeners set up once inside the book's frame: they read the state through a ref.
  const state = useRef({ panel, shown });
  state.current = { panel, shown };

  const onTap = useCallback((zone: TapZone, turn: (side: 'left' | 'right') => void) => {
    if (state.current.panel) {
      setPanel(null);
      return;
    }
    if (zone === 'middle') setShown((s) => !s);
    else turn(zone);
  }, []);

  useEffect(() => {
    if (shown) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setShown(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown]);

  return { panel, setPanel, shown, onTap };
}
