import { useEffect, useId, useRef, useState, useSyncExternalStore, type FocusEvent } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useSession } from '../../features/auth/session-store';
import { useGetStarted } from '../../features/home/use-get-started';
import { holdToasts } from '../../lib/toast';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/PageState';
import { Toaster, useCurrentToast } from '../../components/Toaster';
import { buttonClass } from '../../components/ui';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-2 py-2 text-sm font-medium whitespace-nowrap transition-colors sm:px-3 ${
    isActive ? 'text-stone-950' : 'text-stone-600 hover:text-stone-950'
  }`;

interface NavItem {
  to: string;
  text: string;
  label?: string;
  title?: string;
}

/** The signed-in pages of the main navigation, in the order both layouts show them. */
const SIGNED_IN_LINKS: readonly NavItem[] = [
  { to: '/pricing', text: 'Pricing' },
  { to: '/dashboard', text: 'Dashboard' },
  { to: '/gallery', text: 'Gallery' },
  { to: '/billing', text: 'Billing', title: 'Billing and receipts' },
  { to: '/settings', text: 'Account', label: 'Account settings' },
];

/**
 * The site's header: a bar of fixed height, so nothing in it ever moves the page. Its
 * notifications take a place of their own in the bar (see Toaster): beside the links on wide
 * screens, and over the bar's contents on narrower ones, which then hide until the notification
 * goes, so a notification never lies over a control nor pushes the page down.
 */
export function SiteHeader() {
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  const { focused, barProps } = useFocusInBar();
  // Where a notification hides the bar's links, hiding the one with the focus would drop it: while
  // the keyboard is there, notifications wait.
  const narrow = useNarrowBar();
  const waiting = focused && narrow;
  useEffect(() => holdToasts(waiting), [waiting]);
  const notifying = useCurrentToast() !== undefined && !waiting;

  return (
    <header className="sticky top-0 z-30 border-b border-stone-200/70 bg-paper/85 backdrop-blur supports-[backdrop-filter]:bg-paper/70">
      <div
        {...barProps}
        className={`relative mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6 ${
          notifying ? 'max-lg:invisible' : ''
        }`}
      >
        <Logo />
        <Toaster
          withheld={waiting}
          className="visible max-lg:absolute max-lg:inset-x-4 max-lg:inset-y-0 max-lg:sm:inset-x-6 lg:min-w-0 lg:flex-1 lg:justify-end"
        />
        <nav aria-label="Main" className="flex items-center gap-0.5 sm:gap-1">
          {signedIn ? <SignedInNav /> : <SignedOutNav />}
        </nav>
      </div>
    </header>
  );
}

function SignedOutNav() {
  const { start, busy } = useGetStarted();
  return (
    <>
      <NavLink to="/pricing" className={navLinkClass}>
        Pricing
      </NavLink>
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
  );
}

/** Every link in a row on wide screens; one Menu button that opens them below the bar on others. */
/** The ops console's page, in the header of admins only. */
const ADMIN_LINK: NavItem = {
  to: '/admin/fleet',
  text: 'Fleet',
  title: 'The worker fleet (admins)',
};

/** The signed-in links, with the fleet page for an admin. */
function useSignedInLinks() {
  const { user } = useSession();
  return user?.is_admin === true ? [...SIGNED_IN_LINKS, ADMIN_LINK] : SIGNED_IN_LINKS;
}

function SignedInNav() {
  const links = useSignedInLinks();
  return (
    <>
      <ul className="hidden items-center gap-1 lg:flex">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              aria-label={link.label}
              title={link.title}
              className={navLinkClass}
            >
              {link.text}
            </NavLink>
          </li>
        ))}
      </ul>
      <CompactMenu />
    </>
  );
}

/**
 * The narrow screens' navigation: a disclosure button and its list of links. It closes on a
 * choice, on Escape (focus back on the button), on a tap elsewhere and when focus leaves it.
 */
function CompactMenu() {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const links = useSignedInLinks();

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div
      ref={rootRef}
      className="lg:hidden"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        className="inline-flex min-h-11 items-center gap-2 rounded-full px-3 py-2 text-sm font-medium text-stone-800 hover:bg-stone-900/5"
      >
        <MenuIcon open={open} />
        Menu
      </button>
      {open && (
        <ul
          id={listId}
          className="absolute inset-x-4 top-full mt-px flex flex-col rounded-b-2xl border border-t-0 border-stone-200 bg-white p-2 shadow-lg sm:right-6 sm:left-auto sm:w-64"
        >
          {links.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                title={link.title}
                className={({ isActive }) =>
                  `flex min-h-11 items-center rounded-xl px-3 text-base font-medium ${
                    isActive ? 'bg-stone-100 text-stone-950' : 'text-stone-700 hover:bg-stone-50'
                  }`
                }
                onClick={() => setOpen(false)}
              >
                {link.label ?? link.text}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The menu button's glyph: three bars, or a cross while the menu is open. Drawn here rather than
 * in components/icons.tsx: the header is on every page's first load, and importing that module
 * would bring every icon of the app into it.
 */
function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
    >
      {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}

/**
 * Whether the keyboard focus is on one of the bar's own controls (not on a notification), and
 * the handlers that follow it.
 */
function useFocusInBar() {
  const [focused, setFocused] = useState(false);
  const inBar = (element: EventTarget | null) =>
    element instanceof Element && !element.closest('section[aria-label="Notifications"]');
  return {
    focused,
    barProps: {
      onFocus: (event: FocusEvent) => setFocused(inBar(event.target)),
      onBlur: (event: FocusEvent) => {
        const next = event.relatedTarget;
        setFocused(next instanceof Node && event.currentTarget.contains(next) && inBar(next));
      },
    },
  };
}

/** Narrower than the large breakpoint, where the bar's links make way for a notification. */
const NARROW_BAR = '(width < 64rem)';

function useNarrowBar(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const query = window.matchMedia(NARROW_BAR);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW_BAR).matches,
  );
}
