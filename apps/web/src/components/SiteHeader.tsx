import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useSession } from '../features/auth/session-store';
import { useGetStarted } from '../features/home/use-get-started';
import { Logo } from './Logo';
import { Spinner } from './PageState';
import { Toaster } from './Toaster';
import { buttonClass } from './ui';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-2 py-2 text-sm font-medium whitespace-nowrap transition-colors sm:px-3 ${
    isActive ? 'text-stone-950' : 'text-stone-600 hover:text-stone-950'
  }`;

export function SiteHeader() {
  const { status } = useSession();
  const { start, busy } = useGetStarted();
  const signedIn = status === 'authenticated';
  const headerRef = useHeaderHeight();

  return (
    <header
      ref={headerRef}
      className="sticky top-0 z-30 border-b border-stone-200/70 bg-paper/85 backdrop-blur supports-[backdrop-filter]:bg-paper/70"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="flex items-center gap-0.5 sm:gap-2">
          <NavLink to="/pricing" className={navLinkClass}>
            Pricing
          </NavLink>
          {signedIn ? (
            <>
              <NavLink to="/dashboard" className={navLinkClass}>
                Dashboard
              </NavLink>
              <NavLink to="/gallery" className={navLinkClass}>
                Gallery
              </NavLink>
              <IconNavLink to="/billing" label="Billing" title="Billing and receipts">
                <path d="M6 3h12v18l-3-2-3 2-3-2-3 2V3Z" />
                <path d="M9 8h6M9 12h6" />
              </IconNavLink>
              <IconNavLink to="/settings" label="Account settings" text="Account">
                <circle cx="12" cy="8" r="4" />
                <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
              </IconNavLink>
            </>
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
      <Toaster />
    </header>
  );
}

/**
 * Keeps the header's height (it grows with its notifications) in --header-height, which the page's
 * scroll padding uses so a focused field is never scrolled under the header.
 */
function useHeaderHeight() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.setProperty('--header-height', `${header.offsetHeight}px`);
    });
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-height');
    };
  }, []);
  return ref;
}

/**
 * A header link that is only its icon on phones (named for screen readers by `label`) and icon
 * plus `text` from the small breakpoint up. `children` are the icon's SVG shapes.
 */
function IconNavLink({
  to,
  label,
  title = label,
  text = label,
  children,
}: {
  to: string;
  label: string;
  title?: string;
  text?: string;
  children: ReactNode;
}) {
  return (
    <NavLink
      to={to}
      aria-label={label}
      title={title}
      className={(state) => `${navLinkClass(state)} inline-flex items-center gap-1.5`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-5 sm:size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {children}
      </svg>
      <span className="hidden sm:inline">{text}</span>
    </NavLink>
  );
}
