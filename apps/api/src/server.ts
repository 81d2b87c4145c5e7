import { createServer, type Server } from 'node:http';
import { createApp } from './app.js';
import type { Container } from './container.js';
import { webOrigins } from './env.js';
import { TrainingFeed } from './ws/training-feed.js';

/** The HTTP server: the app, and /ws on the same port. */
export function createHttpServer(
  c: Container,
  options: { heartbeatMs?: number } = {},
): { server: Server; feed: TrainingFeed } {
  const server = createServer(createApp(c));
  const feed = new TrainingFeed({
    accessToken: c.accessToken,
    revocations: c.revocations,
    training: c.training,
    events: c.trainingEvents,
    allowedOrigins: webOrigins(c.env),
    logger: c.logger,
    heartbeatMs: options.heartbeatMs,
  });
  feed.attach(server);
  return { server, feed };
}
