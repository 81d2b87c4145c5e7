import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';

/**
 * Focus goes back to what opened the dialog; when that control is gone or now disabled (a
 * purchase that disabled its button), to `fallback` when given (the list a deleted item was in),
 * else to the page's heading, rather than to <body>.
 */
export function returnFocus(opener: HTMLElement | null, fallback?: () => HTMLElement | null): void {
  // The dialog's own close may restore focus first; wait for it, then correct it if needed.
  queueMicrotask(() => {
    const usable =
      opener?.isConnected && !(opener as HTMLButtonElement).disabled && opener !== document.body;
    if (usable) {
      opener.focus();
      return;
    }
    const heading =
      fallback?.() ??
      document.querySelector<HTMLElement>('#main h1') ??
      document.getElementById('main');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  });
}

/** A native modal dialog (focus trap, Escape, backdrop) with a title and a Close button. */
export function Modal({
  open,
  onClose,
  eyebrow,
  title,
  children,
  wide = false,
  returnFocusTo,
}: {
  open: boolean;
  onClose: () => void;
  eyebrow?: string;
  title: string;
  children: ReactNode;
  wide?: boolean;
  /** Where focus goes on closing when the control that opened the dialog is gone. */
  returnFocusTo?: () => HTMLElement | null;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  // What had focus when the dialog opened; undefined while it is closed.
  const openerRef = useRef<HTMLElement | null | undefined>(undefined);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      // jsdom and very old browsers lack showModal.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && openerRef.current !== undefined) {
      // Closed by the page, or already by the browser (Escape): either way focus goes back.
      if (dialog.open) {
        if (typeof dialog.close === 'function') dialog.close();
        else dialog.removeAttribute('open');
      }
      returnFocus(openerRef.current, returnFocusTo);
      openerRef.current = undefined;
    }
  }, [open, returnFocusTo]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      // Escape is the page's to decide, at once: Chromium fires 'close' only at the next
      // animation frame, and a key pressed before then (Enter on the opener) would meet a page
      // that still thinks the dialog is open.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // For the same reason the 'close' of a dialog the page closed can arrive after the page
      // has opened it again: that stale event is ignored.
      onClose={() => {
        if (!dialogRef.current?.open) onClose();
      }}
      className={`m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] overflow-y-auto rounded-2xl bg-white p-6 text-stone-900 shadow-2xl sm:p-8 ${wide ? 'max-w-3xl' : 'max-w-md'}`}
    >
      {open && (
        <>
          <div className="mb-5 flex items-start justify-between gap-4">
            <div>
              {eyebrow && (
                <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
                  {eyebrow}
                </p>
              )}
              <h2 id={titleId} className="mt-1 font-display text-2xl font-semibold">
                {title}
              </h2>
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="-m-1 rounded-lg p-1.5 text-stone-500 hover:bg-stone-100 hover:text-stone-900"
            >
              <CloseIcon />
            </button>
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}
