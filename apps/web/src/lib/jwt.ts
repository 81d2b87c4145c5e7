/** Reads the `exp` claim (seconds) of a JWT without verifying it; null when absent or unreadable. */
export function tokenExpiry(token: string | null | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const claims: unknown = JSON.parse(atob(padded));
    if (typeof claims === 'object' && claims !== null && 'exp' in claims) {
      const exp = (claims as { exp: unknown }).exp;
      if (typeof exp === 'number' && Number.isFinite(exp)) return exp;
    }
  } catch {
    // Not a JWT.
  }
  return null;
}
