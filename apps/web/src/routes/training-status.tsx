import { useLocation, useParams } from 'react-router';
import { TrainingLiveView } from '../features/training/TrainingLiveView';

function openedFromModelList(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && (state as { from?: unknown }).from === 'models'
  );
}

/** /training/{id}: live status of a training, by job id or upload session id. */
export function Component() {
  const { sessionId = '' } = useParams();
  const location = useLocation();
  return (
    <>
      <title>Training Status · Studioshot</title>
      <TrainingLiveView
        key={sessionId}
        id={sessionId}
        fromModelList={openedFromModelList(location.state)}
      />
    </>
  );
}
