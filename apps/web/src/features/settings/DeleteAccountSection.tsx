import { zodResolver } from '@hookform/resolvers/zod';
import { ACCOUNT_DELETION_KEEPS, ACCOUNT_DELETION_REMOVES } from '@studioshot/contracts';
import { useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { Spinner } from '../../components/PageState';
import { FormError, PasswordField, PasswordToggle } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import { clearSession, getSession, startSession } from '../auth/session-store';
import { deleteAccount } from './settings-api';
import { ZDeleteAccountFormSchema, type DeleteAccountForm } from './settings-schemas';
import { SettingsSection } from './SettingsSection';

/** Router state: on /account-deleted while the request runs; back on /settings if refused. */
export interface DeletionNavigationState {
  deleting?: boolean;
  deleteError?: string;
}

/**
 * The deletion signs every session out the moment the server accepts it, and a signed-in tab
 * that sees its session end (the realtime channel is closed on it) goes to the sign-in page. So
 * this tab lets go of its session first: it moves to the public deletion page, forgets the
 * session (the realtime channel and every poller stop), and only then sends the request with the
 * token it kept. Refused (a wrong password), it signs back in with that token and returns.
 */
async function deleteFromThisTab(navigate: NavigateFunction, password: string): Promise<void> {
  const access = appStorage.getItem(STORAGE_KEYS.accessToken) ?? '';
  const refresh = appStorage.getItem(STORAGE_KEYS.refreshToken) ?? '';
  const { user } = getSession();
  const deleting: DeletionNavigationState = { deleting: true };
  await navigate('/account-deleted', { flushSync: true, state: deleting });
  flushSync(() => clearSession());
  queryClient.clear();
  try {
    const deletion = await deleteAccount(password, access);
    await navigate(`/account-deleted?id=${encodeURIComponent(deletion.deletion_id)}`, {
      replace: true,
    });
  } catch (error) {
    if (user) startSession({ access_token: access, refresh_token: refresh }, user);
    const refused: DeletionNavigationState = {
      deleteError: errorMessage(error, 'Failed to delete your account. Please try again.'),
    };
    await navigate('/settings', { replace: true, state: refused });
  }
}

export function DeleteAccountSection() {
  const navigate = useNavigate();
  const location = useLocation();
  const refused = (location.state as DeletionNavigationState | null)?.deleteError ?? null;
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const passwordId = useId();
  const {
    register: field,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<DeleteAccountForm>({
    resolver: zodResolver(ZDeleteAccountFormSchema),
    defaultValues: { password: '' },
  });

  // Back from a refused deletion: the reason is here, and so is the field to try again in.
  useEffect(() => {
    // Focusing the field also scrolls it into view.
    if (refused) setFocus('password');
  }, [refused, setFocus]);

  const submit = handleSubmit(async ({ password }) => {
    setBusy(true);
    await deleteFromThisTab(navigate, password);
  });

  return (
    <SettingsSection
      title="Delete account"
      tone="danger"
      description="Permanently delete your account and everything in it. This cannot be undone."
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-stone-900">What is deleted</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
            {ACCOUNT_DELETION_REMOVES.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold text-stone-900">What is kept</h3>
          <p className="mt-2 text-sm text-stone-700">{ACCOUNT_DELETION_KEEPS}</p>
          <p className="mt-2 text-sm text-stone-700">
            Want a copy first? Use Download my data above before you delete.
          </p>
        </div>
      </div>
      <form
        onSubmit={submit}
        noValidate
        className="mt-6 space-y-4 border-t border-red-100 pt-5"
        aria-label="Delete account"
      >
        <PasswordField
          id={passwordId}
          label="Your password, to confirm"
          visible={visible}
          autoComplete="current-password"
          error={errors.password?.message}
          trailing={
            <PasswordToggle
              visible={visible}
              onToggle={() => setVisible((v) => !v)}
              controls={passwordId}
            />
          }
          {...field('password')}
        />
        <FormError message={refused} />
        <button type="submit" disabled={busy} className={buttonClass('danger')}>
          {busy && <Spinner className="size-4" />}
          {busy ? 'Deleting...' : 'Delete my account permanently'}
        </button>
      </form>
    </SettingsSection>
  );
}
