import { useEffect, useRef } from 'react';

/** Fields where arrow keys and Enter belong to the field itself. */
const TEXT_ENTRY = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
/** Controls Enter already activates: Enter on them is theirs, never Generate. */
const ACTIVATES_ON_ENTER = 'a[href], button, summary, [role="button"], [role="link"], label';
/** Anything modal or menu-like keeps its own keys. */
const OWN_KEYS = 'dialog, [role="dialog"], [role="menu"], [role="listbox"], [role="tablist"]';

export interface StudioKeyHandlers {
  onPrevious: () => void;
  onNext: () => void;
  onGenerate: () => void;
}

/** Whether the studio should take a key pressed on `target` (anything not a field or widget). */
export function studioKeyFor(
  key: string,
  target: EventTarget | null,
): 'previous' | 'next' | 'generate' | null {
  const element = target instanceof Element ? target : null;
  if (element?.closest(TEXT_ENTRY) || element?.closest(OWN_KEYS)) return null;
  if (key === 'ArrowLeft') return 'previous';
  if (key === 'ArrowRight') return 'next';
  if (key === 'Enter' && !element?.closest(ACTIVATES_ON_ENTER)) return 'generate';
  return null;
}

/**
 * The studio's keyboard (spec: Generation page): left and right arrows move the carousel and
 * Enter generates, wherever focus is on the page except in a field or on a control that has its
 * own use for the key.
 */
export function useStudioKeys(handlers: StudioKeyHandlers, enabled = true): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.shiftKey || event.isComposing) return;
      const action = studioKeyFor(event.key, event.target);
      // A held arrow keeps moving (the lock paces it); a held Enter generates once.
      if (!action || (action === 'generate' && event.repeat)) return;
      event.preventDefault();
      if (action === 'previous') latest.current.onPrevious();
      else if (action === 'next') latest.current.onNext();
      else latest.current.onGenerate();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
