import { useEffect, useRef, type FormEvent } from 'react';
import { useLocation } from 'react-router';
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
  useResumeAfterReload(useLocation().pathname, state, start);
  const done = state.phase === 'done' ? state.result : null;
  useRevealResults(done?.id ?? null, RESULTS_HEADING_ID);

  const submit = (event: FormEvent, blocked: boolean) => {
    event.preventDefault();
    if (!busy && !blocked) start();
  };
  return { ...generation, busy, done, submit };
}
export type PageGeneration = ReturnType<typeof usePageGeneration>;

/** Where this tab keeps the key of the generation a page is following. */
const resumeSlot = (page: string) => `generation-in-progress:${page}`;

function readSlot(page: string): string | null {
  try {
    return window.sessionStorage.getItem(resumeSlot(page));
  } catch {
    return null;
  }
}

function writeSlot(page: string, key: string | null): void {
  try {
    if (key) window.sessionStorage.setItem(resumeSlot(page), key);
    else window.sessionStorage.removeItem(resumeSlot(page));
  } catch {
    // No session storage (a private mode): a reload then starts from the empty page.
  }
}

/**
 * A reload while generating comes back to the same generation: its idempotency key is kept for
 * the tab, and the page asks again with it on opening. The server answers a key it has seen with
 * the generation it started then, so nothing is charged twice.
 */
function useResumeAfterReload(
  page: string,
  state: GenerationState,
  start: (key?: string) => void,
): void {
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const key = readSlot(page);
    if (key) start(key);
  }, [page, start]);
  useEffect(() => {
    if (isBusy(state)) writeSlot(page, state.key);
    else if (state.phase !== 'idle') writeSlot(page, null);
  }, [page, state]);
}
