import { useId, type ReactNode } from 'react';
import { cardClass } from '../../components/ui';

/** One card of the settings page: a heading (its landmark's name), a line on what it does. */
export function SettingsSection({
  title,
  description,
  tone = 'neutral',
  children,
}: {
  title: string;
  description?: ReactNode;
  tone?: 'neutral' | 'danger';
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={`${cardClass} p-5 sm:p-7 ${tone === 'danger' ? 'border-red-200' : ''}`}
    >
      <h2
        id={headingId}
        className={`font-display text-xl font-semibold ${tone === 'danger' ? 'text-red-800' : 'text-stone-950'}`}
      >
        {title}
      </h2>
      {description && <p className="mt-1.5 text-sm text-stone-600">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}

/** A short confirmation under a form, announced politely. */
export function Notice({ message }: { message: string | null }) {
  return (
    <p role="status" className="min-h-5 text-sm text-emerald-800">
      {message}
    </p>
  );
}
