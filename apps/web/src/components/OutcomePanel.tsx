import type { ReactNode } from 'react';

const TONES = {
  success: {
    border: 'border-emerald-200',
    badge: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  },
  error: { border: 'border-red-200', badge: 'bg-red-50 text-red-700 ring-red-200' },
} as const;

/** The card that ends a flow: an icon badge, a title, what happened, and what to do next. */
export function OutcomePanel({
  tone,
  titleId,
  title,
  icon,
  role,
  actions,
  footer,
  children,
}: {
  tone: keyof typeof TONES;
  titleId: string;
  title: ReactNode;
  icon: ReactNode;
  role?: 'status' | 'alert';
  actions: ReactNode;
  /** A note under the actions. */
  footer?: ReactNode;
  children: ReactNode;
}) {
  const look = TONES[tone];
  return (
    <section
      role={role}
      aria-labelledby={titleId}
      className={`rounded-2xl border ${look.border} bg-white p-6 shadow-sm sm:p-8`}
    >
      <div className="flex items-start gap-4">
        <span
          className={`flex size-11 shrink-0 items-center justify-center rounded-full ring-1 ${look.badge}`}
        >
          {icon}
        </span>
        <div className="min-w-0">
          <h2
            id={titleId}
            className="font-display text-2xl font-semibold break-words text-stone-950"
          >
            {title}
          </h2>
          {children}
        </div>
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">{actions}</div>
      {footer}
    </section>
  );
}
