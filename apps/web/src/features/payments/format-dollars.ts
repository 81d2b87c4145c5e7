/** $24.99 from 2499 cents; whole dollars keep no decimals when `compact` ($25). */
export function formatDollars(cents: number, { compact = false } = {}): string {
  const dollars = cents / 100;
  if (compact && Number.isInteger(dollars)) return `$${dollars.toLocaleString('en-US')}`;
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
