import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation } from 'react-router';

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
    // A lazy page renders its heading a moment after navigating, longer on a busy device: wait
    // for it however long it takes, unless the user has moved the focus themselves meanwhile.
    const focusedAtNavigation = document.activeElement;
    const focusHeading = () => {
      if (done) return true;
      const active = document.activeElement;
      if (active !== focusedAtNavigation && active !== document.body && active !== null) {
        done = true;
        return true;
      }
      // A loading state's heading ("Checking your account...") is replaced by the page's own:
      // focus there would fall to the page when it goes.
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading || heading.closest('[aria-busy="true"]')) return false;
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
    return () => {
      done = true;
      observer.disconnect();
    };
    // A new page is a new pathname: a query change on the same page keeps focus where it is.
  }, [location.pathname, navigation.state]);

  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
      {announcement}
    </div>
  );
}
