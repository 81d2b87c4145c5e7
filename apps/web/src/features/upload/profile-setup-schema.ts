import { z } from 'zod';
import { MAX_AGE, MIN_AGE } from './constants';

export const AGE_RANGE_MESSAGE = `Age must be between ${MIN_AGE} and ${MAX_AGE}`;
export const GENDER_REQUIRED_MESSAGE = 'Please choose male or female';

/** The profile setup form (product spec, section 5): gender required, age optional 18-100. */
export const ZProfileSetupFormSchema = z.object({
  gender: z.enum(['male', 'female'], { error: GENDER_REQUIRED_MESSAGE }),
  age: z
    .string()
    .trim()
    .refine(
      (value) =>
        value === '' ||
        (/^\d{1,3}$/.test(value) && Number(value) >= MIN_AGE && Number(value) <= MAX_AGE),
      { error: AGE_RANGE_MESSAGE },
    )
    .transform((value) => (value === '' ? null : Number(value))),
});

export type ProfileSetupInput = z.input<typeof ZProfileSetupFormSchema>;
export type ProfileSetupValues = z.output<typeof ZProfileSetupFormSchema>;
