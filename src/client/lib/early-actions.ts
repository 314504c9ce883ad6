/**
 * What a reader does to the server's HTML before React has made it live, played back once it is.
 *
 * React attaches a part's handlers only when it hydrates that part: the whole page once its code has
 * arrived, and each lazily loaded home section later still (pages/home-sections/lazy-sections). React does not
 * replay a click on a part it cannot hydrate at that moment, so a "Buy" or "Play" pressed too early
 * would do nothing, and a form submitted then would be sent by the browser itself as a page load. Such
 * presses are held here, the part's code is asked for at once, and when the part is live the text the
 * reader typed is handed to React and the presses are repeated on the same elements (hydration keeps
 * the server's elements; a part whose HTML did not match is redrawn, and its held presses are dropped:
 * the journeys check that no page has such a mismatch).
 */

/** Elements whose press only React can carry out; plain links keep working without it. */
const PRESSABLE = 'button, [role="button"], summary, input[type="checkbox"], input[type="radio"], input[type="submit"]';

/**
 * `dormant`: server HTML only. `waking`: hydrated, its fields' typing being handed to React; presses are
 * still held. `live`: presses reach React.
 */
type Part = { element: Element; state: 'dormant' | 'waking' | 'live'; held: Array<() => void>; wake?: () => void };

const parts = new Map<string, Part>();
let listening = false;

/**
 * Holds presses on `element` (a server-rendered part known as `id`) until `markLive(id)`. `wake` is
 * called on the first held press, to fetch the part's code without waiting for it to come into view.
 */
export function holdUntilLive(id: string, element: Element, wake?: () => void): void {
  parts.set(id, { element, state: 'dormant', held: [], wake });
  if (listening) return;
  listening = true;
  // Capture on the document runs before React's own listeners on the root.
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('keydown', onKeyDown, true);
}

/** Called once the part `id` is hydrated: passes on the reader's typing, then the held presses. */
export function markLive(id: string): void {
  const part = parts.get(id);
  if (!part || part.state !== 'dormant') return;
  part.state = 'waking';
  // After the commit that made the part live, outside React's own work. Presses go on being held one
  // more turn: React draws the announced typing in a microtask, and a press handled before that would
  // read the fields' old state (an empty email box, for instance).
  setTimeout(() => {
    announceTyping(part.element);
    setTimeout(() => {
      part.state = 'live';
      // Said on the element too, for whoever waits on the page (the browser journeys) to know it is live.
      part.element.setAttribute('data-live', '');
      for (const replay of part.held.splice(0)) replay();
    }, 0);
  }, 0);
}

/** The innermost registered part holding `target` that is not live yet, if any. */
function dormantPartOf(target: EventTarget | null): Part | null {
  if (!(target instanceof Element)) return null;
  let found: Part | null = null;
  for (const part of parts.values()) {
    if (part.state === 'live' || !part.element.contains(target)) continue;
    if (!found || found.element.contains(part.element)) found = part;
  }
  return found;
}

/** Holds `event` on `element`; `replay` repeats it once the part is live. */
function hold(event: Event, element: Element, replay: () => void): void {
  const part = dormantPartOf(element);
  if (!part) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  part.held.push(() => element.isConnected && replay());
  part.wake?.();
}

/** The pressable element an event happened on, if any. */
function pressableOf(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest(PRESSABLE) : null;
}

function onClick(event: MouseEvent): void {
  const pressed = pressableOf(event.target);
  if (pressed instanceof HTMLElement) hold(event, pressed, () => pressed.click());
}

/**
 * Keys a widget reads itself on a pressable element (the cover gallery's arrows, Home and End). Other
 * keys stay with the browser: Tab moves focus, Enter and Space become a click (held above), the up and
 * down arrows scroll, and a key with a modifier is a shortcut.
 */
const WIDGET_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

function onKeyDown(event: KeyboardEvent): void {
  if (!WIDGET_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
  const pressed = pressableOf(event.target);
  if (!(pressed instanceof HTMLElement)) return;
  const { key, code, shiftKey, repeat } = event;
  hold(event, pressed, () => pressed.dispatchEvent(new KeyboardEvent('keydown', { key, code, shiftKey, repeat, bubbles: true, cancelable: true })));
}

function onSubmit(event: SubmitEvent): void {
  const form = event.target;
  if (form instanceof HTMLFormElement) hold(event, form, () => form.requestSubmit());
}

/**
 * Text typed before hydration sits in the element but not in React's state, which would put the old
 * value back on its next render. Re-announcing it as input lets the form's handlers take it in.
 */
function announceTyping(container: Element): void {
  // A box or button keeps its value attribute as its value, so only typed text differs here.
  for (const field of container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    const typed = field.value;
    if (typed === field.defaultValue) continue;
    const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setNative = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
    // React compares against the last value it saw; show it the old one, then the typed one.
    field.value = field.defaultValue;
    setNative?.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
