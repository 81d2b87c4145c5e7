import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useSession } from '../../features/auth/session-store';
import { api } from '../../lib/api';
import { ApiError } from '../../lib/api-client';

/** The release this client was built as (product spec, section 1). */
export const BUILD_LABEL = "v0.3.0 'CI/CD Automation'";

/** The server's version from /health; a degraded server (503) still reports it. */
async function fetchServerVersion(): Promise<string | null> {
  let body: unknown;
  try {
    body = await api.get('/health', { anonymous: true });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 503)) throw error;
    body = error.body;
  }
  const version = (body as { version?: unknown } | null | undefined)?.version;
  return typeof version === 'string' && version ? version : null;
}

export function formatVersion(version: string): string {
  return `git-${version.slice(0, 7)}`;
}

function ServerVersion() {
  const { data, isPending, isError } = useQuery({
    queryKey: ['health', 'version'],
    queryFn: fetchServerVersion,
    staleTime: Infinity,
    retry: 1,
  });
  if (isPending) return <span>checking version...</span>;
  if (isError || !data) return <span>version unavailable</span>;
  return <span className="font-mono">{formatVersion(data)}</span>;
}

export function SiteFooter() {
  const { status } = useSession();
  return (
    // Signed in, the training status bar may sit over the bottom of the page: keep room for it.
    <footer
      className={`border-t border-stone-200 bg-stone-100/60 ${status === 'authenticated' ? 'pb-20' : ''}`}
    >
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-[1fr_auto] sm:px-6">
        <div>
          <p className="font-display text-lg font-semibold text-stone-900">Studioshot</p>
          <p className="mt-1 max-w-sm text-sm text-stone-600">
            Professional headshots from your own selfies.{' '}
            <Link className="underline underline-offset-4 hover:text-stone-950" to="/refunds">
              30-day money-back guarantee
            </Link>
            .
          </p>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-stone-600">
          <Link className="hover:text-stone-950" to="/pricing">
            Pricing
          </Link>
          <Link className="hover:text-stone-950" to="/demo">
            Free demo
          </Link>
          {status !== 'authenticated' && (
            <Link className="hover:text-stone-950" to="/auth">
              Sign in
            </Link>
          )}
          <Link className="hover:text-stone-950" to="/dashboard">
            Dashboard
          </Link>
          <Link className="hover:text-stone-950" to="/privacy">
            Privacy
          </Link>
        </nav>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-stone-600 sm:col-span-2">
          <span>© {new Date().getFullYear()} Studioshot</span>
          <span aria-hidden="true">·</span>
          <span>{BUILD_LABEL}</span>
          <span aria-hidden="true">·</span>
          <ServerVersion />
        </p>
      </div>
    </footer>
  );
}
