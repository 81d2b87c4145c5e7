import { z } from 'zod';
import { MODEL_NAME_MAX } from './training-logic';

/** The model name form of /training/start (the server takes 1-80 characters, trimmed). */
export const ZModelNameFormSchema = z.object({
  model_name: z
    .string()
    .trim()
    .min(1, 'Model name is required')
    .max(MODEL_NAME_MAX, `Model name must be ${MODEL_NAME_MAX} characters or fewer`)
    // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), {
      message: 'Model name cannot contain control characters',
    }),
});
export type ModelNameForm = z.infer<typeof ZModelNameFormSchema>;
