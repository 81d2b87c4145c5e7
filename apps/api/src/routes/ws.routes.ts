import {
  MESSAGES,
  WS_CLOSE,
  WS_PATH,
  ZWsClientMessageSchema,
  ZWsServerMessageSchema,
} from '@studioshot/contracts';
import { AppError } from '../errors.js';
import { SchemaRef, type DeclaringRouter } from '../http/declare.js';

/**
 * /ws, the realtime channel, documented as what it is: a GET that upgrades to a WebSocket
 * (`ws/task-feed.ts` serves the upgrade on the HTTP server, before Express). The messages each
 * way are in the operation's `x-websocket`. A plain GET (no Upgrade) reaches Express: 426.
 */
export function wsRoutes(api: DeclaringRouter): void {
  api.route(
    {
      method: 'get',
      path: WS_PATH,
      summary: "The realtime channel: the signed-in user's task changes, pushed",
      description:
        'Open as a WebSocket (Upgrade: websocket) from an allowed origin; no credentials in the address. The first message authenticates (`{"type":"auth","token":<access token>}`), within 5 s; the server answers `ready` and then pushes `task` (and, for trainings, `training`) messages. `ping` is answered `pong`.',
      tag: 'realtime',
      auth: 'none',
      responses: {
        101: { description: 'Switching Protocols: the WebSocket is open' },
      },
      errors: [426],
      extensions: {
        'x-websocket': {
          clientMessage: new SchemaRef(ZWsClientMessageSchema, 'input'),
          serverMessage: new SchemaRef(ZWsServerMessageSchema, 'output'),
          closeCodes: {
            [WS_CLOSE.unauthorized]: 'Not signed in, or the session ended: sign in again',
            [WS_CLOSE.forbiddenOrigin]: 'The page is not on an allowed origin: do not retry',
            [WS_CLOSE.authTimeout]: 'No auth message in time',
          },
        },
      },
    },
    () => {
      throw new AppError('upgrade_required', MESSAGES.wsUpgradeRequired, {
        headers: { Upgrade: 'websocket' },
      });
    },
  );
}
