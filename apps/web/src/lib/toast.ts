/** Toast timing and layout (api spec, section 9). */
export const TOAST_DURATION_MS = 5000;
export const TOAST_FADE_MS = 300;

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** True during the fade-out before removal. */
  leaving: boolean;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
/** When each toast's dismissal is due, and what is left of it while paused. */
const deadlines = new Map<number, number>();
const paused = new Map<number, number>();
/** Whether every toast waits (see holdToasts). */
let held = false;

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts the fade, then removes the toast once the fade is over. */
export function dismissToast(id: number): void {
  const current = toasts.find((t) => t.id === id);
  if (!current || current.leaving) return;
  clearTimeout(timers.get(id));
  deadlines.delete(id);
  paused.delete(id);
  publish(toasts.map((t) => (t.id === id ? { ...t, leaving: true } : t)));
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id);
      publish(toasts.filter((t) => t.id !== id));
    }, TOAST_FADE_MS),
  );
}

export function showToast(
  message: string,
  kind: ToastKind = 'info',
  durationMs: number = TOAST_DURATION_MS,
): number {
  const id = nextId++;
  publish([...toasts, { id, kind, message, leaving: false }]);
  schedule(id, durationMs);
  if (held) pauseToast(id);
  return id;
}

function schedule(id: number, ms: number): void {
  deadlines.set(id, Date.now() + ms);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), ms),
  );
}

/** Holds a toast while the pointer is over it or focus is in it (WCAG 2.2.1: timing adjustable). */
export function pauseToast(id: number): void {
  const due = deadlines.get(id);
  if (due === undefined || paused.has(id)) return;
  clearTimeout(timers.get(id));
  paused.set(id, Math.max(0, due - Date.now()));
}

/** Lets a held toast go on, with the time it had left. */
export function resumeToast(id: number): void {
  const left = paused.get(id);
  if (left === undefined) return;
  paused.delete(id);
  schedule(id, left);
}

/**
 * Holds every toast, those to come included, while they cannot be shown (the header keeps them
 * back while the keyboard is on its links), and lets them go on afterwards with the time they had.
 */
export function holdToasts(hold: boolean): void {
  if (hold === held) return;
  held = hold;
  for (const item of toasts) {
    if (item.leaving) continue;
    if (hold) pauseToast(item.id);
    else resumeToast(item.id);
  }
}

/** The toast on screen: the newest, until it has faded out. */
export function currentToast(): Toast | undefined {
  return toasts.at(-1);
}

export const toast = {
  success: (message: string, durationMs?: number) => showToast(message, 'success', durationMs),
  error: (message: string, durationMs?: number) => showToast(message, 'error', durationMs),
  info: (message: string, durationMs?: number) => showToast(message, 'info', durationMs),
  dismiss: dismissToast,
};

/** Test helper: forget every toast and timer. */
export function resetToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  deadlines.clear();
  paused.clear();
  held = false;
  publish([]);
}
