import { z } from 'zod';
import { ZQueueTaskSchema, ZTrainingJobSchema } from './training.js';

/**
 * /ws, the realtime channel (one socket per signed-in tab). The first client message
 * authenticates; nothing else is accepted before it. The server then pushes the user's task
 * changes. Imported by the web app through `@studioshot/contracts/ws`, so its realtime client
 * parses what it receives without loading every other contract.
 */
export const WS_PATH = '/ws';

export const ZWsClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string() }),
  z.object({ type: z.literal('ping') }),
]);
export type WsClientMessage = z.infer<typeof ZWsClientMessageSchema>;

export const ZWsServerMessageSchema = z.discriminatedUnion('type', [
  /** Authenticated: pushes follow. Sent after every (re)connect, so the client resyncs. */
  z.object({ type: z.literal('ready'), user_id: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), detail: z.string() }),
  /** Every change of any of the user's tasks, any type (generation pages follow these). */
  z.object({ type: z.literal('task'), task: ZQueueTaskSchema }),
  /** A training task's change as a training job (the training pages), after its `task`. */
  z.object({ type: z.literal('training'), job: ZTrainingJobSchema }),
]);
export type WsServerMessage = z.infer<typeof ZWsServerMessageSchema>;
export type WsServerMessageType = WsServerMessage['type'];

/**
 * Close codes the client acts on: sign in again, stop retrying, or (serverRestart, the standard
 * 1012 "service restart") reconnect, which reaches another API process while this one shuts down.
 */
export const WS_CLOSE = {
  unauthorized: 4401,
  forbiddenOrigin: 4403,
  authTimeout: 4408,
  serverRestart: 1012,
} as const;
