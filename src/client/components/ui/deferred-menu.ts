/**
 * Dropdown menus whose code loads on first interaction. Until someone reaches for the trigger
 * (pointer down, focus or a key on it) the page shows a plain button of the same look, so Radix
 * DropdownMenu and its positioning engine are not part of the first-paint download. A press that
 * asked to open the menu is remembered, so the first click, tap or Enter still opens it once its code
 * has arrived, and keyboard focus moves from the placeholder to the real trigger or the first item.
 *
 * The menu component receives `open`, `onOpenChange` and the two focus hints, and calls
 * useDeferredMenuFocus for the trigger ref and the content's onFocus.
 */
import { useEffect, useRef, useState } from 'react';
import type { ComponentType, FocusEvent, KeyboardEvent, MouseEvent, PointerEvent, RefObject } from 'react';

export interface DeferredMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The placeholder had focus when the menu replaced it: give focus to the real trigger. */
  focusTriggerOnMount: boolean;
  /** Opened from the keyboard before the code arrived: focus the first item, as Radix would. */
  focusFirstItem: boolean;
}

const OPEN_KEYS = ['Enter', ' ', 'ArrowDown', 'ArrowUp'];

export function useDeferredMenu<P extends DeferredMenuProps>(load: () => Promise<{ default: ComponentType<P> }>) {
  const [Menu, setMenu] = useState<ComponentType<P> | null>(null);
  const [open, setOpen] = useState(false);
  const [byKeyboard, setByKeyboard] = useState(false);
  const [focusTrigger, setFocusTrigger] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  const loading = useRef(false);

  const start = () => {
    if (loading.current) return;
    loading.current = true;
    load().then(
      (module) => {
        setFocusTrigger(document.activeElement === ref.current);
        setMenu(() => module.default);
      },
      () => {
        loading.current = false; // a failed download is retried on the next interaction
      },
    );
  };
  const requestOpen = (keyboard: boolean) => {
    setOpen(true);
    setByKeyboard(keyboard);
    start();
  };

  const menuProps: DeferredMenuProps = { open, onOpenChange: setOpen, focusTriggerOnMount: focusTrigger, focusFirstItem: byKeyboard };
  const placeholderProps = {
    ref,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
    onFocus: (_event: FocusEvent<HTMLButtonElement>) => start(),
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      // The Radix trigger's rule: the primary button without Ctrl (a macOS right click) opens.
      if (event.button === 0 && !event.ctrlKey) requestOpen(false);
      else start();
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (!OPEN_KEYS.includes(event.key)) return start();
      event.preventDefault();
      requestOpen(true);
    },
    // Assistive technology may activate a button with a click and no pointer or key events.
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      if (event.detail === 0) requestOpen(true);
    },
  };
  return { Menu, menuProps, placeholderProps };
}

/** For the loaded menu: replays the placeholder's focus once. */
export function useDeferredMenuFocus({ open, focusTriggerOnMount, focusFirstItem }: DeferredMenuProps): {
  triggerRef: RefObject<HTMLButtonElement | null>;
  onContentFocus: (event: FocusEvent<HTMLElement>) => void;
} {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const focusItemOnce = useRef(open && focusFirstItem);

  useEffect(() => {
    // An open menu takes focus itself and returns it to the trigger when it closes.
    if (!open && focusTriggerOnMount) triggerRef.current?.focus();
    // Only the state at mount matters.
  }, []);

  const onContentFocus = (event: FocusEvent<HTMLElement>) => {
    // Radix focuses the first item only after a key press it saw itself; the placeholder's key press
    // happened before this code loaded, so do it once when the menu content takes focus.
    if (!focusItemOnce.current || event.target !== event.currentTarget) return;
    focusItemOnce.current = false;
    event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  };
  return { triggerRef, onContentFocus };
}
