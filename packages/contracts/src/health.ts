import { z } from 'zod';

export const ZHealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
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
