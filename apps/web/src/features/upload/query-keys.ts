/**
 * The upload feature's query keys, one per server resource. An upload session has one entry,
 * whichever page reads it (/upload while photos arrive, /training/start when the set is sent).
 */
export const uploadKeys = {
  all: ['upload'] as const,
  /** GET /api/v1/upload/session/{id}/status. */
  session: (sessionId: string) => [...uploadKeys.all, 'session', sessionId] as const,
  /** The user's current photo set (current-set.ts). */
  currentSet: () => [...uploadKeys.all, 'current-set'] as const,
};
