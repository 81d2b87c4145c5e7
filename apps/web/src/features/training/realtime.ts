import { queryClient } from '../../lib/query-client';
import { realtime } from '../../lib/realtime';
import { applyJobUpdate } from './training-cache';
import { trainingKeys } from './query-keys';

/**
 * Training on the tab's shared realtime channel (lib/realtime), held while a signed-in shell is
 * mounted (TrainingGlobal): pushes update the cache at once; every (re)connect resyncs from the
 * API. Returns the release.
 */
export function holdTrainingRealtime(): () => void {
  const unsubscribe = [
    realtime.onTraining(applyJobUpdate),
    // Pushes made while we were away are lost: read the truth again.
    realtime.onReady(() => void queryClient.invalidateQueries({ queryKey: trainingKeys.all() })),
  ];
  const release = realtime.hold();
  return () => {
    release();
    for (const off of unsubscribe) off();
  };
}
