import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** A GET path of the metrics port besides /metrics: its JSON answer, or an error to send as 400. */
export type MetricsRoute = (query: URLSearchParams) => Promise<unknown>;

/** A request a metrics route refuses: answered 400 with this message. */
export class BadMetricsRequest extends Error {
  override name = 'BadMetricsRequest';
}

export interface MetricsServer {
  server: Server;
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * The private metrics listener: a second HTTP server, apart from the public one, that answers
 * `GET /metrics` (Prometheus text) and the extra JSON routes given, and 404 to anything else. The
 * deployment never publishes its port: only the cluster's scrapers reach it.
 */
export async function startMetricsServer(options: {
  port: number;
  host?: string;
  registry: Registry;
  routes?: Record<string, MetricsRoute>;
  onError?: (error: unknown) => void;
}): Promise<MetricsServer> {
  const routes = options.routes ?? {};
  const server = createServer((req, res) => {
    void answer(req).then(
      ({ status, type, body }) => {
        res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
        res.end(body);
      },
      (error: unknown) => {
        options.onError?.(error);
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('metrics unavailable\n');
      },
    );
  });

  async function answer(req: IncomingMessage) {
    const url = new URL(req.url ?? '/', 'http://metrics');
    const route = routes[url.pathname];
    if (req.method !== 'GET' || (url.pathname !== '/metrics' && !route)) {
      return { status: 404, type: 'text/plain', body: 'not found\n' };
    }
    if (!route) {
      return {
        status: 200,
        type: options.registry.contentType,
        body: await options.registry.metrics(),
      };
    }
    try {
      return {
        status: 200,
        type: 'application/json',
        body: JSON.stringify(await route(url.searchParams)),
      };
    } catch (error) {
      if (!(error instanceof BadMetricsRequest)) throw error;
      return {
        status: 400,
        type: 'application/json',
        body: JSON.stringify({ error: { code: 'validation_error', message: error.message } }),
      };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
