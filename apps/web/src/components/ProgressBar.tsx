/** A determinate progress bar with an accessible name and a spoken value. */
export function ProgressBar({
  value,
  label,
  valueText,
  size = 'md',
  tone = 'accent',
  minVisible = 0,
  className = '',
}: {
  /** 0-100. */
  value: number;
  label: string;
  valueText?: string;
  size?: 'sm' | 'md' | 'lg';
  tone?: 'accent' | 'success' | 'danger';
  /** The smallest width drawn (percent), so a just-started bar is still visible. */
  minVisible?: number;
  className?: string;
}) {
  const percent = Math.round(Math.min(100, Math.max(0, value)));
  const width = Math.max(minVisible, percent);
  const heights = { sm: 'h-1.5', md: 'h-2.5', lg: 'h-3' } as const;
  const tones = {
    accent: 'bg-accent-600',
    success: 'bg-emerald-600',
    danger: 'bg-red-600',
  } as const;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText ?? `${percent}%`}
      className={`overflow-hidden rounded-full bg-stone-200/80 ${heights[size]} ${className}`}
    >
      <div
        className={`h-full rounded-full transition-[width] duration-300 ease-out ${tones[tone]}`}
        style={{ width: `${width}%` }}
      />
    </div>
  );
}
