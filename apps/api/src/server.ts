import { createServer, type Server } from 'node:http';
import { createApp } from './app.js';
import type { Container } from './container.js';
import { webOrigins } from './env.js';
import { TaskFeed } from './ws/task-feed.js';

/** The HTTP server: the app, and /ws on the same port. */
export function createHttpServer(
  c: Container,
  options: { heartbeatMs?: number } = {},
): { server: Server; feed: TaskFeed } {
  const server = createServer(createApp(c));
  const feed = new TaskFeed({
    access: c.accessCheck,
    revocations: c.revocations,
    queue: c.queue,
    training: c.training,
    events: c.taskEvents,
    allowedOrigins: webOrigins(c.env),
    logger: c.logger,
    heartbeatMs: options.heartbeatMs,
  });
  feed.attach(server);
  return { server, feed };
}
