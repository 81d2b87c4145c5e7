import { ZHealthResponseSchema } from '@studioshot/contracts';
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
          description: 'Degraded: the database or Redis is down (same body)',
        },
      },
    },
    async () => {
      const report = await health.check();
      return report.status === 'ok' ? report : reply(503, report);
    },
  );
}
