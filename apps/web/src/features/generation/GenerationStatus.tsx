import { useGenerationExpectation } from '../queue/use-durations';
import { GenerationFailure } from './GenerationFailure';
import { isBusy, type GenerationState } from './generation-machine';
import { GenerationProgress } from './GenerationProgress';

/**
 * Where a generation page says how its Generate is going: live progress (with how long it
 * usually takes) while it runs, or the failure and the way on. Nothing before and after.
 */
export function GenerationStatus({
  state,
  onRetry,
  offerUpload,
  className,
}: {
  state: GenerationState;
  onRetry: () => void;
  offerUpload?: boolean;
  className?: string;
}) {
  const expectation = useGenerationExpectation();
  if (isBusy(state)) {
    return (
      <div className={className}>
        <GenerationProgress
          state={state}
          title="Generating your headshots"
          expectation={expectation}
        />
      </div>
    );
  }
  if (state.phase !== 'failed') return null;
  return (
    <div className={className}>
      <GenerationFailure state={state} onRetry={onRetry} offerUpload={offerUpload} />
    </div>
  );
}
