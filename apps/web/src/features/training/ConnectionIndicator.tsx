import type { ConnectionState } from './training-logic';

const LOOK: Record<ConnectionState, { label: string; dot: string; text: string }> = {
  connected: { label: 'Connected', dot: 'bg-emerald-500', text: 'text-emerald-800' },
  reconnecting: {
    label: 'Reconnecting...',
    dot: 'bg-amber-500 animate-pulse',
    text: 'text-amber-800',
  },
  offline: { label: 'Offline', dot: 'bg-stone-400', text: 'text-stone-600' },
};

/** Connected / reconnecting / offline, for live training status. */
export function ConnectionIndicator({
  state,
  className = '',
}: {
  state: ConnectionState;
  className?: string;
}) {
  const look = LOOK[state];
  return (
    <p
      role="status"
      aria-label={`Connection: ${look.label}`}
      data-state={state}
      className={`inline-flex items-center gap-2 rounded-full bg-white/80 px-2.5 py-1 text-xs font-medium ring-1 ring-stone-200 ${look.text} ${className}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${look.dot}`} />
      {look.label}
    </p>
  );
}
