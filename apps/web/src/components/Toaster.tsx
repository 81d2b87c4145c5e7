import { useSyncExternalStore } from 'react';
import {
  TOAST_FADE_MS,
  dismissToast,
  getToasts,
  pauseToast,
  resumeToast,
  subscribeToToasts,
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

/**
 * The notifications, in the sticky header's flow below its navigation: a new one pushes the page
 * down instead of lying over it, so it never covers a button (on a phone, the one the user is
 * about to tap) nor the header's links. A toast holds while hovered or focused; the live region
 * announces each.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions"
      className="mx-auto flex max-w-6xl flex-col gap-2 px-4 sm:items-end sm:px-6"
    >
      {toasts.map((item) => (
        <div
          key={item.id}
          onMouseEnter={() => pauseToast(item.id)}
          onMouseLeave={() => resumeToast(item.id)}
          onFocus={() => pauseToast(item.id)}
          onBlur={() => resumeToast(item.id)}
          className={`toast-enter flex min-h-12 w-full items-start gap-3 rounded-xl border border-l-4 border-stone-200 bg-white px-4 py-2.5 text-sm text-stone-800 shadow-sm transition-[opacity,transform] last:mb-2 sm:w-96 ${KIND_STYLES[item.kind]}`}
          style={{
            opacity: item.leaving ? 0 : 1,
            transitionDuration: `${TOAST_FADE_MS}ms`,
          }}
        >
          <span className="sr-only">{KIND_LABEL[item.kind]}: </span>
          <p className="line-clamp-2 flex-1" title={item.message}>
            {item.message}
          </p>
          <button
            type="button"
            onClick={() => dismissToast(item.id)}
            className="-m-1 rounded-md p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-900"
            aria-label="Dismiss notification"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        </div>
      ))}
    </section>
  );
}
