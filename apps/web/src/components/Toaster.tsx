import { useSyncExternalStore } from 'react';
import {
  TOAST_FADE_MS,
  currentToast,
  dismissToast,
  pauseToast,
  resumeToast,
  subscribeToToasts,
  type Toast,
  type ToastKind,
} from '../lib/toast';

const KIND_STYLES: Record<ToastKind, string> = {
  success: 'border-l-emerald-600',
  error: 'border-l-red-600',
  info: 'border-l-accent-600',
};

const KIND_LABEL: Record<ToastKind, string> = {
  success: 'Success',
  error: 'Error',
  info: 'Notice',
};

/** The toast on screen now (the newest), or none. */
export function useCurrentToast(): Toast | undefined {
  return useSyncExternalStore(subscribeToToasts, currentToast, currentToast);
}

/**
 * The notifications: one at a time, the newest, in a place of the header bar that `className`
 * gives (the bar is of fixed height, so one opening moves nothing); none while `withheld`. A
 * toast holds while hovered or focused; the live region, always present, announces each.
 */
export function Toaster({
  className = '',
  withheld = false,
}: {
  className?: string;
  withheld?: boolean;
}) {
  const current = useCurrentToast();
  const item = withheld ? undefined : current;
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions"
      // Where it lies over the header's bar, only a toast itself takes taps, never its empty place.
      className={`pointer-events-none flex items-center ${className}`}
    >
      {item && (
        <div
          key={item.id}
          onMouseEnter={() => pauseToast(item.id)}
          onMouseLeave={() => resumeToast(item.id)}
          onFocus={() => pauseToast(item.id)}
          onBlur={() => resumeToast(item.id)}
          className={`toast-enter pointer-events-auto flex max-h-14 w-full items-center gap-3 rounded-xl border border-l-4 border-stone-200 bg-white px-3.5 py-2 text-sm leading-5 text-stone-800 shadow-sm transition-opacity lg:max-w-96 ${KIND_STYLES[item.kind]}`}
          style={{
            opacity: item.leaving ? 0 : 1,
            transitionDuration: `${TOAST_FADE_MS}ms`,
          }}
        >
          <span className="sr-only">{KIND_LABEL[item.kind]}: </span>
          <p className="line-clamp-2 min-w-0 flex-1" title={item.message}>
            {item.message}
          </p>
          <button
            type="button"
            onClick={() => dismissToast(item.id)}
            className="-m-1 shrink-0 rounded-md p-1.5 text-stone-500 hover:bg-stone-100 hover:text-stone-900"
            aria-label="Dismiss notification"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        </div>
      )}
    </section>
  );
}
