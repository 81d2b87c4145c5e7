import { once } from 'node:events';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@studioshot/observability';
import type { HealthService } from './services/health.service.js';
import type { TaskFeed } from './ws/task-feed.js';

/** Counts the HTTP requests being answered, so a shutdown can wait until each has its answer. */
export class RequestsInFlight {
  private count = 0;
  private readonly drained = new Set<() => void>();

  constructor(server: Server) {
    server.on('request', (_req, res) => {
      this.count += 1;
      res.once('close', () => {
        this.count -= 1;
        if (this.count === 0) for (const resolve of this.drained) resolve();
      });
    });
  }

  /** Resolves once no request is being answered. */
  async none(): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.drained.delete(done);
        resolve();
      };
      this.drained.add(done);
    });
  }
}

/**
 * The API's own share of every wait a shutdown may sit through: past the readiness delay, the
 * longest a request waits for its result (a Generate for its images, an upload's completion for
 * its checks), and a margin for closing the sockets and the connections to Postgres and Redis.
 * An orchestrator's grace period must exceed it (infra/k8s sets it so).
 */
export function shutdownDeadlineMs(env: {
  SHUTDOWN_READINESS_DELAY_MS: number;
  GENERATION_WAIT_MS: number;
  UPLOAD_CHECKS_WAIT_MS: number;
}): number {
  return (
    env.SHUTDOWN_READINESS_DELAY_MS +
    Math.max(env.GENERATION_WAIT_MS, env.UPLOAD_CHECKS_WAIT_MS) +
    CLOSE_MARGIN_MS
  );
}
const CLOSE_MARGIN_MS = 10_000;

/**
 * A graceful stop, in the order a rolling update needs: readiness fails first (while the process
 * still serves, so the load balancer moves new requests elsewhere), then no new connection is
 * taken and every request already asked is answered (a Generate waiting for its images included),
 * then /ws sockets close with the code the web app reconnects on, then the process lets go of
 * Postgres and Redis. A second signal cuts the readiness delay short, never the answers owed.
 */
export async function shutDownGracefully(deps: {
  server: Server;
  feed: TaskFeed;
  health: HealthService;
  requests: RequestsInFlight;
  readinessDelayMs: number;
  /** Ends the readiness delay early (a second signal: the operator wants it stopped now). */
  skipReadinessDelay?: AbortSignal;
  /** Closes the container: queues, Redis, Postgres. */
  closeContainer: () => Promise<void>;
  logger: Logger;
}): Promise<void> {
  const { server, logger } = deps;
  deps.health.beginShutdown();
  logger.info({ delayMs: deps.readinessDelayMs }, 'readiness failing; still serving');
  await delay(deps.readinessDelayMs, undefined, { signal: deps.skipReadinessDelay }).catch(
    (error: unknown) => {
      if (!deps.skipReadinessDelay?.aborted) throw error;
    },
  );
  logger.info('no new connections; answering the requests in flight');
  const closed = once(server, 'close');
  server.close();
  server.closeIdleConnections();
  await deps.requests.none();
  logger.info('every request answered; closing live connections');
  deps.feed.close();
  // Keep-alive connections left idle by the requests just answered.
  server.closeAllConnections();
  await closed;
  await deps.closeContainer();
}
