/** One item of the landing page's 'At a glance' list. */
export function Claim({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex flex-col-reverse text-center">
      <dt className="mt-1 text-sm text-stone-600">{label}</dt>
      <dd className="font-display text-3xl font-semibold text-stone-950">{value}</dd>
    </div>
  );
}

/**
 * Where the time to results goes until the estimate says it, and when nothing can be promised:
 * a claim of the same size that does not depend on it, so nothing moves when it arrives.
 */
export const UNTIMED_CLAIM = <Claim value="1 credit" label="for 4 headshots" />;
