import { Link } from 'react-router';
import { buttonClass } from '../../components/ui';
import { lowCreditLevel } from './low-credit';

const TONES = {
  out: 'border-red-200 bg-red-50 [&_h2]:text-red-900',
  almost: 'border-accent-300 bg-accent-100/70 [&_h2]:text-accent-800',
  low: 'border-stone-200 bg-white [&_h2]:text-stone-950',
} as const;

/**
 * Low-credit banner (product spec): at 5 credits or fewer, linking to /credits. A Dismiss button
 * appears when credits > 0 and a close handler is supplied.
 */
export function LowCreditBanner({
  credits,
  onDismiss,
  className = '',
}: {
  credits: number | null | undefined;
  onDismiss?: () => void;
  className?: string;
}) {
  const level = lowCreditLevel(credits);
  if (!level) return null;
  const dismissible = (credits ?? 0) > 0 && onDismiss !== undefined;
  return (
    <section
      aria-label="Credit balance"
      className={`flex flex-col gap-4 rounded-2xl border px-5 py-4 sm:flex-row sm:items-center sm:justify-between ${TONES[level.level]} ${className}`}
    >
      <div className="min-w-0">
        <h2 className="font-display text-lg font-semibold">{level.title}</h2>
        <p className="mt-0.5 text-sm text-stone-700">{level.body}</p>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <Link to="/credits" className={buttonClass('primary', 'sm')}>
          {level.action}
        </Link>
        {dismissible && (
          <button type="button" onClick={onDismiss} className={buttonClass('ghost', 'sm')}>
            Dismiss
          </button>
        )}
      </div>
    </section>
  );
}
