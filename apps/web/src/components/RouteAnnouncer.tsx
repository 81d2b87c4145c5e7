import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation } from 'react-router';

/** How long to wait for a new page's heading (lazy pages render a moment after navigating). */
const HEADING_WAIT_MS = 3000;

/**
 * A route change is silent for screen readers and leaves focus on the link that was clicked.
 * After each navigation (not the first load) this moves focus to the new page's first heading
 * and announces the page's title in a polite live region.
 */
export function RouteAnnouncer() {
  const location = useLocation();
  const navigation = useNavigation();
  const [announcement, setAnnouncement] = useState('');
  // The page focus was last moved to; the first load keeps the browser's own focus.
  const shownPath = useRef(location.pathname);

  useEffect(() => {
    if (navigation.state !== 'idle' || shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    const main = document.getElementById('main');
    if (!main) return;
    let done = false;
    const focusHeading = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading || done) return false;
      done = true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      setAnnouncement(document.title || heading.textContent || '');
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      done = true;
      observer.disconnect();
      clearTimeout(timer);
    };
    // A new page is a new pathname: a query change on the same page keeps focus where it is.
  }, [location.pathname, navigation.state]);

  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
      {announcement}
    </div>
  );
}
