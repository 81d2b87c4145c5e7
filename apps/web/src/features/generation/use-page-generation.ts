import type { FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { GenerationResult } from './generation-api';
import { isBusy, type GenerationState } from './generation-machine';
import { RESULTS_HEADING_ID } from './GenerationResults';
import { refreshAfterGeneration } from './hooks';
import { useGeneration } from './use-generation';
import { useRevealResults } from './use-reveal';

/**
 * A generation page's Generate: useGeneration, plus what every page does around it. When it
 * ends the balance and the gallery are read again and a finished set is announced with
 * `readyMessage` (`onSettled` adds the page's own reaction); the results' heading is revealed
 * when they arrive. `submit` is a settings form's: it starts unless busy or `blocked`.
 */
export function usePageGeneration(
  send: (key: string) => Promise<GenerationResult>,
  {
    readyMessage,
    onSettled,
  }: { readyMessage: string; onSettled?: (outcome: GenerationState) => void },
) {
  const generation = useGeneration(send, (outcome) => {
    refreshAfterGeneration();
    if (outcome.phase === 'done') toast.success(readyMessage);
    onSettled?.(outcome);
  });
  const { state, start } = generation;
  const busy = isBusy(state);
  const done = state.phase === 'done' ? state.result : null;
  useRevealResults(done?.id ?? null, RESULTS_HEADING_ID);

  const submit = (event: FormEvent, blocked: boolean) => {
    event.preventDefault();
    if (!busy && !blocked) start();
  };
  return { ...generation, busy, done, submit };
}
export type PageGeneration = ReturnType<typeof usePageGeneration>;
