import type { ReactNode } from 'react';

export function Spinner({ className = 'size-6' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`${className} animate-spin`}>
      <circle
        cx="12"
        cy="12"
        r="10"
        fill="none"
        stroke="currentColor"
        strokeOpacity="0.2"
        strokeWidth="3"
      />
      <path
        d="M22 12a10 10 0 0 0-10-10"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A centred loading, empty or error panel with a title, a line of text and optional actions. */
export function PageState({
  title,
  message,
  busy = false,
  tone = 'neutral',
  children,
}: {
  title: string;
  message?: string;
  busy?: boolean;
  tone?: 'neutral' | 'error';
  children?: ReactNode;
}) {
  return (
    <div
      // Loading, empty and error panels share one box, so one replacing another moves nothing.
      className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center px-6 py-16 text-center"
      role={tone === 'error' ? 'alert' : 'status'}
      aria-busy={busy || undefined}
    >
      {busy && <Spinner className="mb-5 size-8 text-accent-600" />}
      <h1 className="font-display text-2xl font-semibold text-stone-950">{title}</h1>
      {message && <p className="mt-2 text-stone-600">{message}</p>}
      {children && <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>}
    </div>
  );
}
