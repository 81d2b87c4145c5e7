import { z } from 'zod';

/** Every error the API answers has this body. */
export const ZErrorSchema = z.object({
  detail: z.string(),
  code: z.string(),
});
export type ApiError = z.infer<typeof ZErrorSchema>;
