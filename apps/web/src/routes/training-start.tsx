import { useLocation, useSearchParams } from 'react-router';
import { StartForSession, StartWithoutSession } from '../features/training/TrainingStart';

/** The session id from ?session= or from the navigation state /upload sends. */
function sessionFrom(search: URLSearchParams, state: unknown): string | null {
  const fromQuery = search.get('session')?.trim();
  if (fromQuery) return fromQuery;
  if (typeof state === 'object' && state !== null) {
    const fromState = (state as { sessionId?: unknown }).sessionId;
    if (typeof fromState === 'string' && fromState.trim()) return fromState.trim();
  }
  return null;
}

export function Component() {
  const [search] = useSearchParams();
  const location = useLocation();
  const sessionId = sessionFrom(search, location.state);
  return (
    <>
      <title>Start Training · Studioshot</title>
      {sessionId ? (
        <StartForSession key={sessionId} sessionId={sessionId} />
      ) : (
        <StartWithoutSession />
      )}
    </>
  );
}
