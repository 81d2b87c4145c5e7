import { useEffect } from 'react';

/**
 * New results arrive below the form: scroll their heading into view and move focus there, so
 * keyboard and screen reader users land on them too. `key` changes once per new set of results.
 */
export function useRevealResults(key: string | null, headingId: string): void {
  useEffect(() => {
    if (!key) return;
    const heading = document.getElementById(headingId);
    heading?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [key, headingId]);
}
