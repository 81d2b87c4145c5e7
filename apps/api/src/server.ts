import type { Server } from 'node:http';
import { startMetricsServer, type MetricsServer } from '@studioshot/observability';
import { createApp } from './app.js';
import type { Container } from './container.js';
import { webOrigins } from './env.js';
import { createExpressServer } from './http/express-server.js';
import { TaskFeed } from './ws/task-feed.js';

/** The HTTP server: the app, and /ws on the same port. */
export function createHttpServer(
  c: Container,
  options: { heartbeatMs?: number } = {},
): { server: Server; feed: TaskFeed } {
  const server = createExpressServer(createApp(c));
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

/**
 * The private metrics listener on METRICS_PORT: Prometheus text at /metrics and KEDA's
 * metrics-api answer at /queue-load?queues=a,b ({"total": n, "queues": {...}}).
 */
export function startApiMetricsServer(
  c: Container,
  port = c.env.METRICS_PORT ?? 0,
): Promise<MetricsServer> {
  return startMetricsServer({
    port,
    registry: c.metrics.registry,
    routes: { '/queue-load': (query) => c.metrics.queueLoad(query.get('queues')) },
    onError: (error) => c.logger.error({ err: error }, 'metrics could not be read'),
  });
}
