import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { PageState } from '../components/PageState';
import { ProgressBar } from '../components/ProgressBar';
import { buttonClass, cardClass } from '../components/ui';
import { errorMessage } from '../lib/api-client';
import type { DeletionNavigationState } from '../features/settings/DeleteAccountSection';
import { fetchAccountDeletion } from '../features/settings/settings-api';
import { settingsKeys } from '../features/settings/query-keys';

/** How often the page asks while the deletion runs. */
const POLL_MS = 1000;

/**
 * Where Settings sends a person whose account is being deleted: every sign-in has ended, so the
 * page follows the deletion by its id alone until everything is gone.
 */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const requesting = (useLocation().state as DeletionNavigationState | null)?.deleting === true;
  const deletion = useQuery({
    queryKey: settingsKeys.deletion(id),
    queryFn: () => fetchAccountDeletion(id ?? ''),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === 'deleted' ? false : POLL_MS),
  });

  const home = (
    <Link to="/" className={buttonClass('primary')}>
      Go to the home page
    </Link>
  );
  // Settings brought us here and is sending the request.
  if (!id && requesting)
    return <PageState title="Deleting your account..." message="Confirming your password" busy />;
  if (!id)
    return (
      <PageState title="No account deletion to follow" message="Nothing is being deleted here.">
        {home}
      </PageState>
    );
  if (deletion.isPending)
    return <PageState title="Checking your account deletion..." message="One moment" busy />;
  if (deletion.isError)
    return (
      <PageState
        title="We could not check your deletion"
        message={errorMessage(deletion.error, 'Please try again in a moment.')}
        tone="error"
      >
        <button
          type="button"
          onClick={() => void deletion.refetch()}
          className={buttonClass('primary')}
        >
          Try again
        </button>
      </PageState>
    );

  const { status, steps_done: done, steps_total: total, message } = deletion.data;
  const finished = status === 'deleted';
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-lg flex-col justify-center px-4 py-14 sm:px-6">
      <title>Account deleted · Studioshot</title>
      <div className={`${cardClass} p-6 sm:p-8`}>
        <h1 className="font-display text-2xl font-semibold text-stone-950">
          {finished ? 'Your account has been deleted' : 'Deleting your account...'}
        </h1>
        {/* While it runs, the step it is on; once done, the heading says it all. */}
        <p className="mt-2 min-h-6 text-stone-700" role="status">
          {finished ? '' : message}
        </p>
        <ProgressBar
          className="mt-5"
          value={finished ? 100 : (100 * done) / total}
          minVisible={5}
          tone={finished ? 'success' : 'accent'}
          label="Account deletion"
          valueText={`${done} of ${total} steps`}
        />
        <p className="mt-5 text-sm text-stone-600">
          {finished
            ? 'Your photos, models, headshots, sign-ins and profile are gone. Payment records are kept for accounting, no longer linked to you.'
            : 'You are already signed out everywhere. You can close this page: the deletion finishes on its own.'}
        </p>
        <div className="mt-6">{home}</div>
      </div>
    </section>
  );
}
