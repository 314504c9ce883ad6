/**
 * Browser entry, kept small: fonts and styles, then the app's code (boot.tsx).
 *
 * A server-rendered page is complete without script, so its first paint must not wait for the
 * framework: the app's code is fetched once the page has been drawn (or at once when the reader presses
 * something first, see lib/early-actions). A page whose root arrives empty needs the code to show
 * anything and loads it straight away.
 */
import './fonts.css';
import './styles.css';
import { afterFirstPaint } from './lib/after-first-paint';
import { holdUntilLive } from './lib/early-actions';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = container;

let started: Promise<void> | null = null;
const boot = () => (started ??= import('./boot').then(({ start }) => start(root)));

if (root.hasChildNodes()) {
  // Presses on the server's HTML wait for the page to be live.
  holdUntilLive('page', root, () => void boot());
  afterFirstPaint(() => void boot());
} else {
  void boot();
}
