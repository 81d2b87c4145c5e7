/** Shared class names, so every button and field looks and focuses the same way. */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const BASE =
  'inline-flex items-center justify-center gap-2 rounded-full font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent-600 text-white shadow-sm hover:bg-accent-700 active:bg-accent-800',
  secondary:
    'border border-stone-300 bg-white text-stone-900 shadow-sm hover:border-stone-400 hover:bg-stone-50',
  ghost: 'text-stone-700 hover:bg-stone-900/5 hover:text-stone-950',
  /** What cannot be undone (deleting the account). */
  danger: 'bg-red-700 text-white shadow-sm hover:bg-red-800 active:bg-red-900',
};

const SIZES = {
  sm: 'px-3.5 py-2 text-sm',
  md: 'px-5 py-2.5 text-sm',
  lg: 'px-6 py-3 text-base',
} as const;

export function buttonClass(
  variant: ButtonVariant = 'primary',
  size: keyof typeof SIZES = 'md',
): string {
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]}`;
}

export const inputClass =
  'block w-full rounded-xl border border-stone-500 bg-white px-3.5 py-2.5 text-stone-900 shadow-sm placeholder:text-stone-500 focus:border-accent-600 aria-[invalid=true]:border-red-600';

export const labelClass = 'block text-sm font-medium text-stone-800';

export const cardClass = 'rounded-2xl border border-stone-200 bg-white shadow-sm';
