import type { ReactNode } from 'react';
import type { GeneratedImage, GenerationResult } from '../generation-api';
import type { GenerationState } from '../generation-machine';
import { GenerationProgress } from '../GenerationProgress';
import { HeadshotGrid } from '../HeadshotGrid';
import { isBusy } from '../generation-machine';
import { useImageDownloads } from '../use-downloads';
import { GenerationFailure } from './GenerationFailure';

/**
 * What follows a legacy page's Generate button: live progress while it runs, the failure with
 * Try Again, then the 4 headshots with Save / Save All (and `footer` under them).
 */
export function GenerationOutcome({
  state,
  done,
  expectation,
  styleLabel,
  onRetry,
  footer,
}: {
  state: GenerationState;
  done: GenerationResult | null;
  expectation: string | null;
  styleLabel: string;
  onRetry: () => void;
  footer?: ReactNode;
}) {
  const { saving, save, saveAll } = useImageDownloads();
  return (
    <>
      {isBusy(state) && (
        <div className="mt-6">
          <GenerationProgress
            state={state}
            title="Generating your headshots"
            expectation={expectation}
          />
        </div>
      )}
      {state.phase === 'failed' && (
        <div className="mt-6">
          <GenerationFailure state={state} onRetry={onRetry} />
        </div>
      )}
      {done && (
        <div className="mt-10">
          <HeadshotGrid
            images={done.images}
            heading="Your Headshots"
            headingId="results-title"
            description={
              <>
                {done.images.length} headshots, 1024x1024
                {done.generation_time !== null && `, ready in ${done.generation_time} seconds`}.
                Best likeness first.
              </>
            }
            styleLabel={styleLabel}
            saving={saving}
            onSave={(image: GeneratedImage) => void save(image)}
            onSaveAll={() => void saveAll(done.images)}
          />
          {footer}
        </div>
      )}
    </>
  );
}
