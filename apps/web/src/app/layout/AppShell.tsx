import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { useSession } from '../../features/auth/session-store';
import { RouteAnnouncer } from './RouteAnnouncer';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

// Only signed-in visitors need the session widget; keep it out of the landing bundle.
const SessionExpiryNotice = lazy(() =>
  import('../../features/auth/SessionExpiryNotice').then((m) => ({
    default: m.SessionExpiryNotice,
  })),
);
// Training status banner, realtime channel and job poll: signed-in visitors only, too.
const TrainingGlobal = lazy(() =>
  import('../../features/training/TrainingStatusBanner').then((m) => ({
    default: m.TrainingGlobal,
  })),
);

// A renewal that failed: a lasting notice on every signed-in page.
const RenewalBanner = lazy(() =>
  import('../../features/payments/RenewalBanner').then((m) => ({ default: m.RenewalBanner })),
);

/** A thin bar while a route's code or data loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-accent-100"
      role="progressbar"
      aria-label="Loading page"
    >
      <div className="progress-slide h-full w-2/5 bg-accent-600" />
    </div>
  );
}

export function AppShell() {
  const { status, user } = useSession();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-stone-950 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <NavigationProgress />
      <RouteAnnouncer />
      <SiteHeader />
      {status === 'authenticated' && (
        // The status area: fixed to the bottom of the screen, out of the page's flow. Its banners
        // arrive after their data; pushing the page down then would make everything jump.
        <div className="fixed inset-x-0 bottom-0 z-40 flex flex-col">
          <Suspense fallback={null}>
            <RenewalBanner />
          </Suspense>
          <Suspense fallback={null}>
            {/* A different account signing in (another tab) starts afresh. */}
            <TrainingGlobal key={user?.id ?? user?.email} />
          </Suspense>
        </div>
      )}
      {/* At least a screen tall: the footer never sits on screen to jump as a page loads. */}
      <main id="main" tabIndex={-1} className="min-h-dvh flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      {status === 'authenticated' && (
        <Suspense fallback={null}>
          <SessionExpiryNotice />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}
