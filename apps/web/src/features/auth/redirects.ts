/** Accepts only same-origin paths, so ?redirect cannot send users to another site. */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  return value;
}

/** After login (product spec, section 4). */
export function postLoginTarget(input: {
  modelsTrained: number | null | undefined;
  storedRedirect: string | null;
  urlRedirect: string | null;
}): string {
  if ((input.modelsTrained ?? 0) > 0) return '/dashboard';
  const stored = safeRedirect(input.storedRedirect);
  if (stored && stored !== '/' && !stored.includes('/pricing') && !stored.includes('/auth')) {
    return stored;
  }
  return safeRedirect(input.urlRedirect) ?? '/dashboard';
}

/**
 * After signup the page the visitor was on their way to wins (Get Started stores /pricing), then
 * ?redirect, then the dashboard.
 */
export function postSignupTarget(input: {
  storedRedirect: string | null;
  urlRedirect: string | null;
}): string {
  const stored = safeRedirect(input.storedRedirect);
  if (stored && stored !== '/' && !stored.startsWith('/auth')) return stored;
  return safeRedirect(input.urlRedirect) ?? '/dashboard';
}
