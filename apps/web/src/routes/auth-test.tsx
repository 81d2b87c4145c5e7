import { Link } from 'react-router';
import { cardClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { appStorage, STORAGE_KEYS } from '../lib/storage';

/** Auth debug page (product spec, /test). */
export function Component() {
  const { status, user } = useSession();
  const hasToken = Boolean(appStorage.getItem(STORAGE_KEYS.accessToken));
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <title>Auth test · Studioshot</title>
      <h1 className="font-display text-3xl font-semibold text-stone-950">Auth test</h1>
      <dl className={`${cardClass} mt-6 divide-y divide-stone-100`}>
        <div className="flex justify-between gap-4 px-5 py-4">
          <dt className="text-stone-600">Authenticated</dt>
          <dd className="font-medium" data-testid="auth-status">
            {status === 'loading' ? 'checking...' : status === 'authenticated' ? 'yes' : 'no'}
          </dd>
        </div>
        <div className="flex justify-between gap-4 px-5 py-4">
          <dt className="text-stone-600">Token</dt>
          <dd className="font-medium" data-testid="token-status">
            {hasToken ? 'present' : 'none'}
          </dd>
        </div>
        <div className="px-5 py-4">
          <dt className="text-stone-600">User</dt>
          <dd className="mt-2">
            <pre
              tabIndex={0}
              className="overflow-x-auto rounded-xl bg-stone-950 p-4 text-xs leading-relaxed text-stone-100"
            >
              {JSON.stringify(user, null, 2)}
            </pre>
          </dd>
        </div>
      </dl>
      <p className="mt-6">
        <Link to="/dashboard" className="font-medium text-accent-700 underline underline-offset-4">
          Go to dashboard
        </Link>
      </p>
    </section>
  );
}
