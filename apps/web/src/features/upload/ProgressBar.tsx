/** A determinate progress bar with an accessible name and a spoken value. */
export function ProgressBar({
  value,
  label,
  valueText,
  size = 'md',
  tone = 'accent',
  className = '',
}: {
  /** 0-100. */
  value: number;
  label: string;
  valueText?: string;
  size?: 'sm' | 'md';
  tone?: 'accent' | 'success';
  className?: string;
}) {
  const percent = Math.round(Math.min(100, Math.max(0, value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText ?? `${percent}%`}
      className={`overflow-hidden rounded-full bg-stone-200/80 ${size === 'sm' ? 'h-1.5' : 'h-2.5'} ${className}`}
    >
      <div
        className={`h-full rounded-full transition-[width] duration-300 ease-out ${tone === 'success' ? 'bg-emerald-600' : 'bg-accent-600'}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
