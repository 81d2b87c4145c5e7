import { MESSAGES, type SignInSession } from '@studioshot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/PageState';
import { FormError } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { clearSession } from '../auth/session-store';
import { formatDateTime } from './format';
import { fetchSessions, signOutEverywhere, signOutSession } from './settings-api';
import { SettingsSection } from './SettingsSection';
import { settingsKeys } from './query-keys';

/** This browser's sign-in has ended: forget it here; the protection wrapper goes to /auth. */
function endedHere(message: string): void {
  toast.success(message);
  clearSession();
  queryClient.clear();
}

function SessionRow({ session }: { session: SignInSession }) {
  const end = useMutation({
    mutationFn: () => signOutSession(session.id),
    onSuccess: (answer) => {
      if (session.current) return endedHere(answer.message);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() });
    },
  });
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-stone-900">
          {session.device}
          {session.current && (
            <span className="rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-800">
              This device
            </span>
          )}
        </p>
        <p className="mt-1 text-sm break-words text-stone-600">
          {session.ip_address ?? 'Unknown address'} · Signed in {formatDateTime(session.created_at)}
        </p>
        <p className="text-sm text-stone-600">
          Last used {session.current ? 'now' : formatDateTime(session.last_used_at)}
        </p>
        {end.isError && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {errorMessage(end.error, 'Failed to sign out that session')}
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={() => end.mutate()}
        disabled={end.isPending}
        aria-label={`Sign out ${session.device}${session.current ? ' (this device)' : ''}`}
        className={buttonClass('secondary', 'sm')}
      >
        {end.isPending && <Spinner className="size-4" />}
        Sign out
      </button>
    </li>
  );
}

export function SessionsSection() {
  const sessions = useQuery({ queryKey: settingsKeys.sessions(), queryFn: fetchSessions });
  const [confirming, setConfirming] = useState(false);
  const everywhere = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: (answer) => endedHere(answer.message),
  });

  return (
    <SettingsSection
      title="Sign-ins"
      description="Where your account is signed in. Sign out any device you do not recognise."
    >
      {sessions.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Loading your sign-ins...
        </p>
      ) : sessions.isError ? (
        <div role="alert" className="space-y-3">
          <p className="text-sm text-red-800">
            {errorMessage(sessions.error, MESSAGES.settingsLoadFailed)}
          </p>
          <button
            type="button"
            onClick={() => void sessions.refetch()}
            className={buttonClass('secondary', 'sm')}
          >
            Try again
          </button>
        </div>
      ) : sessions.data.length === 0 ? (
        <p className="text-sm text-stone-600">No active sign-ins.</p>
      ) : (
        <ul aria-label="Active sign-ins" className="divide-y divide-stone-200">
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      )}
      <div className="mt-6 border-t border-stone-200 pt-5">
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className={buttonClass('secondary')}
        >
          Sign out everywhere
        </button>
      </div>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        eyebrow="Sign-ins"
        title="Sign out everywhere?"
      >
        <p className="text-stone-700">
          Every device signed in to your account is signed out at once, this one included. You can
          sign in again with your password.
        </p>
        <FormError
          message={everywhere.isError ? errorMessage(everywhere.error, 'Failed to sign out') : null}
        />
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button
            type="button"
            onClick={() => setConfirming(false)}
            className={buttonClass('ghost')}
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={() => everywhere.mutate()}
            disabled={everywhere.isPending}
            className={buttonClass('primary')}
          >
            {everywhere.isPending && <Spinner className="size-4" />}
            Sign out everywhere
          </button>
        </div>
      </Modal>
    </SettingsSection>
  );
}
