import { act, useEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type EarlyActions = typeof import('./early-actions');
let early: EarlyActions;

beforeEach(async () => {
  vi.resetModules(); // each test starts with no part registered
  early = await import('./early-actions');
});

afterEach(() => {
  document.body.innerHTML = '';
});

/**
 * Waits out markLive's two zero-delay turns. Timers of one delay run in the order they were set, so two
 * nested zero-delay turns set after markLive's always end after it, however busy the machine (a 5 ms wait
 * did not: on a loaded machine it could come due before markLive's second turn).
 */
const tick = () => act(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)));

function SignUp({ onSend }: { onSend: (email: string) => void }) {
  const [email, setEmail] = useState('');
  return (
    <form
      aria-label="Sign up"
      onSubmit={(event) => {
        event.preventDefault();
        onSend(email);
      }}
    >
      <input aria-label="Email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      <button type="submit">Subscribe</button>
    </form>
  );
}

function LiveSignUp({ onSend }: { onSend: (email: string) => void }) {
  useEffect(() => early.markLive('signup'), []);
  return <SignUp onSend={onSend} />;
}

/** The server's HTML of the form, as the browser shows it before any script has run. */
function serverHtml() {
  const part = document.createElement('section');
  part.id = 'signup';
  part.innerHTML = renderToString(<SignUp onSend={() => undefined} />);
  document.body.append(part);
  return part;
}

describe('presses before hydration', () => {
  it('a press and the typing before the part is live reach the form once it is', async () => {
    const part = serverHtml();
    const wake = vi.fn();
    early.holdUntilLive('signup', part, wake);
    const sent = vi.fn();

    const input = part.querySelector('input')!;
    input.value = 'early@example.com';
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    part.querySelector('button')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true); // no page load with the address in it
    expect(wake).toHaveBeenCalledTimes(1);

    await act(async () => {
      hydrateRoot(part, <LiveSignUp onSend={sent} />);
    });
    await tick();

    expect(sent).toHaveBeenCalledTimes(1);
    expect(sent).toHaveBeenCalledWith('early@example.com');
  });

  it('a press on a part that is already live is left alone', async () => {
    const part = serverHtml();
    early.holdUntilLive('signup', part);
    const sent = vi.fn();
    expect(part.hasAttribute('data-live')).toBe(false);
    await act(async () => {
      hydrateRoot(part, <LiveSignUp onSend={sent} />);
    });
    await tick();
    // The element says so too.
    expect(part.hasAttribute('data-live')).toBe(true);

    await act(async () => part.querySelector('button')!.click());
    expect(sent).toHaveBeenCalledTimes(1);
    expect(sent).toHaveBeenCalledWith('');
  });

  it('a plain link or a click outside any dormant part is not held', () => {
    const part = serverHtml();
    part.insertAdjacentHTML('beforeend', '<a href="#top">Top</a>');
    const outside = document.createElement('button');
    document.body.append(outside);
    early.holdUntilLive('signup', part);

    const onLink = new MouseEvent('click', { bubbles: true, cancelable: true });
    part.querySelector('a')!.dispatchEvent(onLink);
    const onOutside = new MouseEvent('click', { bubbles: true, cancelable: true });
    outside.dispatchEvent(onOutside);

    expect(onLink.defaultPrevented).toBe(false);
    expect(onOutside.defaultPrevented).toBe(false);
  });

  it("a widget's key pressed before the part is live reaches it once it is; Tab and shortcuts are the browser's", async () => {
    function Gallery({ onKey }: { onKey: (key: string) => void }) {
      return (
        <section id="gallery">
          <button type="button" onKeyDown={(event) => onKey(event.key)}>
            View larger
          </button>
        </section>
      );
    }
    function LiveGallery({ onKey }: { onKey: (key: string) => void }) {
      useEffect(() => early.markLive('gallery'), []);
      return <Gallery onKey={onKey} />;
    }
    const part = document.createElement('div');
    part.innerHTML = renderToString(<Gallery onKey={() => undefined} />);
    document.body.append(part);
    early.holdUntilLive('gallery', part);
    const keys = vi.fn();

    const button = part.querySelector('button')!;
    const arrow = new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true });
    button.dispatchEvent(arrow);
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    button.dispatchEvent(tab);
    const shortcut = new KeyboardEvent('keydown', { key: 'ArrowLeft', altKey: true, bubbles: true, cancelable: true });
    button.dispatchEvent(shortcut);
    expect(arrow.defaultPrevented).toBe(true);
    expect(tab.defaultPrevented).toBe(false);
    expect(shortcut.defaultPrevented).toBe(false);

    await act(async () => {
      hydrateRoot(part, <LiveGallery onKey={keys} />);
    });
    await tick();
    expect(keys.mock.calls).toEqual([['ArrowLeft']]);
  });
});
