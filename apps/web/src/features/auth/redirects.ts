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

/** After signup the stored redirect is dropped (product spec, section 4). */
export function postSignupTarget(urlRedirect: string | null): string {
  return safeRedirect(urlRedirect) ?? '/dashboard';
}
