import { MESSAGES } from '@studioshot/contracts';
import { Link } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass } from '../components/ui';
import { useProfile } from '../features/auth/use-profile';
import { DeleteAccountSection } from '../features/settings/DeleteAccountSection';
import { ExportSection } from '../features/settings/ExportSection';
import { PasswordSection } from '../features/settings/PasswordSection';
import { ProfileSection } from '../features/settings/ProfileSection';
import { StyleSection } from '../features/settings/StyleSection';
import { SessionsSection } from '../features/settings/SessionsSection';
import { errorMessage } from '../lib/api-client';

/** Account settings: name, password, sign-ins, 'Download my data', and deleting the account. */
export function Component() {
  const profile = useProfile();

  if (profile.isPending)
    return <PageState title="Loading your settings..." message="One moment" busy />;
  if (profile.isError)
    return (
      <PageState
        title="Settings unavailable"
        message={errorMessage(profile.error, MESSAGES.settingsLoadFailed)}
        tone="error"
      >
        <button
          type="button"
          onClick={() => void profile.refetch()}
          className={buttonClass('primary')}
        >
          Try again
        </button>
      </PageState>
    );

  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Settings · Studioshot</title>
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">Account</p>
      <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        Settings
      </h1>
      <p className="mt-2 text-stone-600">
        Your profile, password and sign-ins, and your data: download it or delete it. How long we
        keep what is set out on the{' '}
        <Link to="/privacy" className="font-medium text-accent-700 underline underline-offset-4">
          privacy page
        </Link>
        .
      </p>
      <div className="mt-8 space-y-6">
        <ProfileSection user={profile.data} />
        <StyleSection user={profile.data} />
        <PasswordSection />
        <SessionsSection />
        <ExportSection />
        <DeleteAccountSection />
      </div>
    </section>
  );
}
