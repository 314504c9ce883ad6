/** Reading preferences, kept on this device: text size, theme and layout. */
import * as safeStorage from '@client/lib/safe-storage';

export type Theme = 'light' | 'sepia' | 'dark';
export type Flow = 'paginated' | 'scrolled';

export interface ReaderPrefs {
  /** Percent of the book's own text size. */
  fontSize: number;
  theme: Theme;
  flow: Flow;
}

export const FONT_MIN = 80;
export const FONT_MAX = 200;
export const FONT_STEP = 10;
export const DEFAULT_PREFS: ReaderPrefs = { fontSize: 100, theme: 'light', flow: 'paginated' };

/** Page and text colours of each theme (contrast above 7:1 in all three). */
export const THEME_COLORS: Record<Theme, { background: string; text: string; link: string }> = {
  light: { background: '#fbfaf7', text: '#1c1a17', link: '#8f1119' },
  sepia: { background: '#f3e7cf', text: '#3b2d1b', link: '#7a2f12' },
  dark: { background: '#141215', text: '#e8e1d3', link: '#f08a8f' },
};

const KEY = 'reader-prefs';

export function loadPrefs(): ReaderPrefs {
  let saved: Partial<ReaderPrefs> | null = null;
  try {
    saved = JSON.parse(safeStorage.get(KEY) ?? 'null') as Partial<ReaderPrefs> | null;
  } catch {
    // Not JSON (written by something else): the defaults.
  }
  if (!saved || typeof saved !== 'object') return DEFAULT_PREFS;
  const fontSize = Number(saved.fontSize);
  return {
    fontSize: Number.isFinite(fontSize) ? Math.min(FONT_MAX, Math.max(FONT_MIN, Math.round(fontSize))) : DEFAULT_PREFS.fontSize,
    theme: saved.theme === 'sepia' || saved.theme === 'dark' || saved.theme === 'light' ? saved.theme : DEFAULT_PREFS.theme,
    flow: saved.flow === 'scrolled' ? 'scrolled' : 'paginated',
  };
}

export function savePrefs(prefs: ReaderPrefs): void {
  // Private mode or full storage: the choice lasts for this visit only.
  safeStorage.set(KEY, JSON.stringify(prefs));
}

/** The audiobook player's speeds. */
export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/**
 * Where a listener's speed is kept on this device: one per signed-in reader, so two people sharing a
 * tablet each keep their own.
 */
export const speedKey = (userId: number | null): string => (userId === null ? 'audio-speed' : `audio-speed:${userId}`);

/** The speed this reader last chose on this device (1x if none, or if what is stored is not a speed). */
export function loadSpeed(key: string): number {
  const saved = Number(safeStorage.get(key));
  return (SPEEDS as readonly number[]).includes(saved) ? saved : 1;
}

export function saveSpeed(key: string, speed: number): void {
  safeStorage.set(key, String(speed));
}
