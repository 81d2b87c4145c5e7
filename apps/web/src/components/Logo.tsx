import { Link } from 'react-router';

/** Wordmark: an aperture-like mark plus the name. */
export function Logo() {
  return (
    <Link
      to="/"
      className="inline-flex items-center gap-2 rounded-lg font-display text-lg font-semibold sm:text-xl tracking-tight text-stone-950"
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="9" fill="#1c1917" />
        <circle cx="16" cy="16" r="8.5" fill="none" stroke="#f5e4d8" strokeWidth="2" />
        <circle cx="16" cy="16" r="3.5" fill="#bd6d3d" />
      </svg>
      {/* Icon only on narrow phones, so the nav fits; still named for screen readers. */}
      <span className="max-sm:sr-only">Studioshot</span>
    </Link>
  );
}
