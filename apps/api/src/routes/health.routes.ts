import { ZHealthResponseSchema, ZLivenessResponseSchema } from '@studioshot/contracts';
import { reply, type DeclaringRouter } from '../http/declare.js';
import type { HealthService } from '../services/health.service.js';

export function healthRoutes(api: DeclaringRouter, health: HealthService): void {
  api.route(
    {
      method: 'get',
      path: '/health',
      summary: 'Service health and version',
      tag: 'system',
      auth: 'none',
      responses: {
        200: ZHealthResponseSchema,
        503: {
          schema: ZHealthResponseSchema,
          description:
            'Degraded (the database or Redis is down) or stopping (this process is shutting down); same body',
        },
      },
    },
    async () => {
      const report = await health.check();
      return report.status === 'ok' ? report : reply(503, report);
    },
  );
  // Liveness, for an orchestrator that restarts a stuck process: it answers whenever the event
  // loop runs, shutdown included, and asks neither Postgres nor Redis (their outage is no reason
  // to restart every API process at once; /health, the readiness check, reports it).
  api.route(
    {
      method: 'get',
      path: '/health/live',
      summary: 'Liveness: the process runs',
      tag: 'system',
      auth: 'none',
      responses: { 200: ZLivenessResponseSchema },
    },
    () => ({ status: 'alive' as const }),
  );
}
