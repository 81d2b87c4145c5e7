import type { ReactNode } from 'react';
import { GenerationResults } from '../GenerationResults';
import { GenerationStatus } from '../GenerationStatus';
import type { PageGeneration } from '../use-page-generation';

/**
 * What follows a legacy page's Generate button: live progress while it runs, the failure with
 * Try Again (or Upload Photos when there is nothing to generate from), then the 4 headshots with
 * Download / Download All (and `footer` under them).
 */
export function GenerationOutcome({
  generation,
  styleLabel,
  footer,
}: {
  generation: PageGeneration;
  styleLabel: string;
  footer?: ReactNode;
}) {
  const { state, done, start } = generation;
  return (
    <>
      <GenerationStatus state={state} onRetry={() => start()} offerUpload className="mt-6" />
      {done && (
        <GenerationResults
          result={done}
          heading="Your Headshots"
          styleLabel={styleLabel}
          className="mt-10"
        >
          {footer}
        </GenerationResults>
      )}
    </>
  );
}
