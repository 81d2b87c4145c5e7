import { z } from 'zod';

export const ZHealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down']),
  uptime_s: z.number(),
});
export type HealthResponse = z.infer<typeof ZHealthResponseSchema>;
