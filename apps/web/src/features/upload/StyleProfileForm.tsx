import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@studioshot/contracts';
import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { MAX_AGE, MIN_AGE } from './constants';
import {
  ZProfileSetupFormSchema,
  type ProfileSetupInput,
  type ProfileSetupValues,
} from './profile-setup-schema';
import { updateProfile } from './upload-api';
import { useProfileSave } from '../auth/use-profile';

const GENDERS = [
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
] as const;

/**
 * Gender (required) and age (optional, 18-100), used to dress and style the headshots; saved
 * with PATCH /api/v1/users/profile. The upload page's first-visit modal and Settings share it.
 */
export function StyleProfileForm({
  defaults,
  onSaved,
  submitLabel,
  secondary,
  autoFocus = false,
}: {
  defaults: { gender?: string | null; age?: number | null };
  onSaved: (user: User) => void;
  submitLabel: string;
  /** Beside the submit button (the modal's Not now). */
  secondary?: ReactNode;
  /** Marks the first choice for the modal's initial focus. */
  autoFocus?: boolean;
}) {
  const profile = useProfileSave();
  const genderErrorId = useId();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileSetupInput, unknown, ProfileSetupValues>({
    resolver: zodResolver(ZProfileSetupFormSchema),
    defaultValues: {
      gender:
        defaults.gender === 'male' || defaults.gender === 'female' ? defaults.gender : undefined,
      age: defaults.age ? String(defaults.age) : '',
    },
  });

  const submit = handleSubmit(async (values) => {
    const user = await profile.save(() =>
      updateProfile({ gender: values.gender, age: values.age }),
    );
    if (!user) return;
    reset({
      gender: user.gender === 'male' || user.gender === 'female' ? user.gender : undefined,
      age: user.age ? String(user.age) : '',
    });
    onSaved(user);
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Profile setup">
      <fieldset aria-describedby={errors.gender ? genderErrorId : undefined}>
        <legend className="text-sm font-medium text-stone-800">
          Gender <span className="font-normal text-stone-500">(required)</span>
        </legend>
        <div className="mt-2 grid grid-cols-2 gap-3">
          {GENDERS.map((option, index) => (
            <label
              key={option.value}
              className="flex cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white px-4 py-3 text-stone-900 shadow-sm transition-colors hover:border-stone-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-600"
            >
              <input
                type="radio"
                value={option.value}
                className="size-4 accent-accent-600 focus-visible:outline-none"
                aria-invalid={errors.gender ? true : undefined}
                data-autofocus={(autoFocus && index === 0) || undefined}
                {...register('gender')}
              />
              {option.label}
            </label>
          ))}
        </div>
        {errors.gender?.message && (
          <p id={genderErrorId} className="mt-1.5 text-sm text-red-700" role="alert">
            {errors.gender.message}
          </p>
        )}
      </fieldset>
      <TextField
        label="Age (optional)"
        inputMode="numeric"
        autoComplete="off"
        maxLength={3}
        hint={`${MIN_AGE}-${MAX_AGE}. Helps us match your look; leave it empty if you prefer.`}
        error={errors.age?.message}
        {...register('age')}
      />
      <FormError message={profile.error} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {secondary}
        <button type="submit" disabled={isSubmitting} className={buttonClass('primary')}>
          {isSubmitting && <Spinner className="size-4" />}
          {isSubmitting ? 'Saving...' : submitLabel}
        </button>
      </div>
    </form>
  );
}
