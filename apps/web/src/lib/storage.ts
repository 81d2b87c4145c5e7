/** Names of the client-stored values (product spec, section 3). */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  user: 'user',
  authRedirect: 'authRedirect',
} as const;

/** The part of the Web Storage API the app relies on; injectable for tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function createMemoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** localStorage when usable; a memory fallback where it is blocked (private modes, sandboxed frames). */
function resolveBrowserStorage(): KeyValueStorage {
  try {
    const storage = window.localStorage;
    const probe = '__studioshot_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return createMemoryStorage();
  }
}

export const appStorage: KeyValueStorage =
  typeof window === 'undefined' ? createMemoryStorage() : resolveBrowserStorage();
