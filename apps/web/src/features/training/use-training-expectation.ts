import { durationPhrase, expectedSeconds } from '../queue/durations';
import { useWaitEstimate } from '../queue/use-durations';

/**
 * How long a training started now should take: the queue's wait plus the median of the engine's
 * recent trainings, in the spec's words when they are true ('about 2 hours', '15-30 minutes'...);
 * null when that is not known.
 */
export function useTrainingExpectation(): string | null {
  const estimate = useWaitEstimate('training');
  // undefined: still loading, or the call failed; null: no training timed yet on this engine.
  if (estimate.data === undefined) return null;
  if (estimate.data === null) return UNTIMED_TRAINING;
  if (estimate.data.waitSeconds === null) {
    return 'No training worker is connected right now: your training waits in the queue until one is.';
  }
  const phrase = durationPhrase('training', expectedSeconds(estimate.data));
  if (!phrase) return UNTIMED_TRAINING;
  return `Training should take ${phrase}, going by the queue right now and our recent trainings.`;
}

/** What the page says instead of a figure while no training has been timed. */
export const UNTIMED_TRAINING =
  'We have not timed a training on this engine yet, so we cannot say how long yours will take.';
