import { useEffect } from 'react';

/**
 * Scrolls a heading into view and moves focus there, so keyboard and screen reader users land on
 * it too.
 */
export function revealHeading(headingId: string): void {
  const heading = document.getElementById(headingId);
  heading?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  heading?.focus({ preventScroll: true });
}

/**
 * New results arrive below the form: reveal their heading. `key` changes once per new set of
 * results.
 */
export function useRevealResults(key: string | null, headingId: string): void {
  useEffect(() => {
    if (key) revealHeading(headingId);
  }, [key, headingId]);
}
