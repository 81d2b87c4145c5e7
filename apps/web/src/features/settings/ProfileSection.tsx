import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@studioshot/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { rename } from './settings-api';
import { ZNameFormSchema, type NameForm } from './settings-schemas';
import { Notice, SettingsSection } from './SettingsSection';
import { useProfileSave } from '../auth/use-profile';

export function ProfileSection({ user }: { user: User }) {
  const profile = useProfileSave();
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register: field,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<NameForm>({
    resolver: zodResolver(ZNameFormSchema),
    defaultValues: { name: user.name },
  });

  const submit = handleSubmit(async ({ name }) => {
    setSaved(null);
    const updated = await profile.save(() => rename(name));
    if (!updated) return;
    reset({ name: updated.name });
    setSaved('Name saved');
  });

  return (
    <SettingsSection title="Profile" description="The name we greet you by.">
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Profile">
        <TextField
          label="Full name"
          autoComplete="name"
          error={errors.name?.message}
          {...field('name', { onChange: () => setSaved(null) })}
        />
        <div>
          <p className="text-sm font-medium text-stone-800">Email</p>
          <p className="mt-1 break-all text-stone-700">{user.email}</p>
        </div>
        <FormError message={profile.error} />
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="submit"
            disabled={isSubmitting || !isDirty}
            className={buttonClass('primary')}
          >
            {isSubmitting && <Spinner className="size-4" />}
            {isSubmitting ? 'Saving...' : 'Save name'}
          </button>
          <Notice message={saved} />
        </div>
      </form>
    </SettingsSection>
  );
}
