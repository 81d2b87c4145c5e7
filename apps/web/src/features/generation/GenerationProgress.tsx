import { ProgressBar } from '../../components/ProgressBar';
import { Spinner } from '../../components/PageState';
import { cardClass } from '../../components/ui';
import { progressMessage, type GenerationState } from './generation-machine';

/** The bar starts visibly wide so a just-queued generation does not look stuck at nothing. */
const MIN_BAR_PERCENT = 5;

export function generationPercent(state: GenerationState): number {
  if (state.phase === 'submitting' || state.phase === 'running' || state.phase === 'collecting') {
    return state.progress;
  }
  return state.phase === 'done' ? 100 : 0;
}

/** A running generation: the percent, a live bar, and what the worker says it is doing. */
export function GenerationProgress({
  state,
  title,
  expectation,
}: {
  state: GenerationState;
  title: string;
  /** How long it usually takes (features/queue/durations.ts); null while that is unknown. */
  expectation: string | null;
}) {
  const percent = generationPercent(state);
  const message = progressMessage(state);
  return (
    <section
      aria-labelledby="generation-progress-title"
      aria-busy="true"
      className={`${cardClass} p-6`}
    >
      <div className="flex items-center gap-3">
        <Spinner className="size-5 text-accent-600" />
        <h2
          id="generation-progress-title"
          className="font-display text-xl font-semibold text-stone-950"
        >
          {title}
        </h2>
      </div>
      <div className="mt-5 flex items-end justify-between gap-4">
        <p className="font-display text-4xl font-semibold text-stone-950 tabular-nums">
          {percent}%
        </p>
        {expectation && <p className="pb-1 text-right text-sm text-stone-600">{expectation}</p>}
      </div>
      <ProgressBar
        className="mt-3"
        size="lg"
        value={percent}
        minVisible={MIN_BAR_PERCENT}
        label="Generation progress"
        valueText={`${percent}%: ${message}`}
      />
      <p className="mt-3 text-sm text-stone-700" aria-live="polite">
        {message}
      </p>
    </section>
  );
}
