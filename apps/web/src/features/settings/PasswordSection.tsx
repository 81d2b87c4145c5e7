import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, PasswordField, PasswordToggle } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { changePassword } from './settings-api';
import { ZChangePasswordFormSchema, type ChangePasswordForm } from './settings-schemas';
import { Notice, SettingsSection } from './SettingsSection';
import { settingsKeys } from './query-keys';

export function PasswordSection() {
  const [visible, setVisible] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const currentId = useId();
  const newId = useId();
  const confirmId = useId();
  const {
    register: field,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(ZChangePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    setDone(null);
    try {
      const answer = await changePassword(values);
      reset();
      setDone(answer.message);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() });
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to change password'));
    }
  });

  return (
    <SettingsSection
      title="Password"
      description="Changing it signs out every other device; this one stays signed in."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Change password">
        <PasswordField
          id={currentId}
          label="Current password"
          visible={visible}
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          trailing={
            <PasswordToggle
              visible={visible}
              onToggle={() => setVisible((v) => !v)}
              controls={`${currentId} ${newId} ${confirmId}`}
            />
          }
          {...field('currentPassword')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            id={newId}
            label="New password"
            visible={visible}
            autoComplete="new-password"
            hint="At least 6 characters"
            error={errors.newPassword?.message}
            {...field('newPassword')}
          />
          <PasswordField
            id={confirmId}
            label="Confirm new password"
            visible={visible}
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...field('confirmPassword')}
          />
        </div>
        <FormError message={serverError} />
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" disabled={isSubmitting} className={buttonClass('primary')}>
            {isSubmitting && <Spinner className="size-4" />}
            {isSubmitting ? 'Changing...' : 'Change password'}
          </button>
          <Notice message={done} />
        </div>
      </form>
    </SettingsSection>
  );
}
