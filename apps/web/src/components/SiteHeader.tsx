import { NavLink } from 'react-router';
import { useSession } from '../features/auth/session-store';
import { useGetStarted } from '../features/home/use-get-started';
import { Logo } from './Logo';
import { Spinner } from './PageState';
import { buttonClass } from './ui';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-2 py-2 text-sm font-medium whitespace-nowrap transition-colors sm:px-3 ${
    isActive ? 'text-stone-950' : 'text-stone-600 hover:text-stone-950'
  }`;

export function SiteHeader() {
  const { status } = useSession();
  const { start, busy } = useGetStarted();
  const signedIn = status === 'authenticated';

  return (
    <header className="sticky top-0 z-30 border-b border-stone-200/70 bg-paper/85 backdrop-blur supports-[backdrop-filter]:bg-paper/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="flex items-center gap-0.5 sm:gap-2">
          <NavLink to="/pricing" className={navLinkClass}>
            Pricing
          </NavLink>
          {signedIn ? (
            <NavLink to="/dashboard" className={navLinkClass}>
              Dashboard
            </NavLink>
          ) : (
            <>
              <NavLink to="/auth" className={navLinkClass}>
                Sign In
              </NavLink>
              <button
                type="button"
                onClick={() => void start()}
                disabled={busy}
                className={`${buttonClass('primary', 'sm')} ml-1 whitespace-nowrap`}
              >
                {busy && <Spinner className="size-4" />}
                Get Started
              </button>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
