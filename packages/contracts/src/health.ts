import { z } from 'zod';

export const ZHealthResponseSchema = z.object({
  /**
   * `stopping`: this process is shutting down (it finishes what it was asked and takes nothing
   * new), so a load balancer sends new requests elsewhere.
   */
  status: z.enum(['ok', 'degraded', 'stopping']),
  version: z.string(),
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down']),
  uptime_s: z.number(),
  /**
   * Development conveniences a production deployment explicitly keeps on (a staging site's test
   * payments), named so nobody mistakes it for a live shop. Absent when there is none.
   */
  warnings: z.array(z.string()).optional(),
  /** The server's debug setting (DEBUG_PROMPTS) is on: the web app shows everyone the debug prompt panel. */
  debug: z.literal(true).optional(),
});
export type HealthResponse = z.infer<typeof ZHealthResponseSchema>;

/** The liveness check: the process's event loop runs. It never asks Postgres or Redis. */
export const ZLivenessResponseSchema = z.object({ status: z.literal('alive') });
export type LivenessResponse = z.infer<typeof ZLivenessResponseSchema>;
