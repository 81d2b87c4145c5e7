import { useCallback, useEffect, useRef, useState } from 'react';
import { api, subscribeToTokenRefresh } from '../../lib/api';
import { isSessionExpired } from '../../lib/api-client';
import { tokenExpiry } from '../../lib/jwt';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import { buttonClass } from '../../components/ui';
import { endExpiredSession } from './session-actions';
import { SESSION_CHECK_INTERVAL_MS, expiryAction } from './session-expiry';

function secondsLeft(): number | null {
  const exp = tokenExpiry(appStorage.getItem(STORAGE_KEYS.accessToken));
  return exp === null ? null : Math.floor(exp - Date.now() / 1000);
}

/**
 * Mounted while signed in: checks the access token every 30 s, warns in the last 5 minutes,
 * renews it in the last 2 and ends the session when it has run out or cannot be renewed.
 */
export function SessionExpiryNotice() {
  const [warningSeconds, setWarningSeconds] = useState<number | null>(null);
  const [renewing, setRenewing] = useState(false);
  const refreshing = useRef(false);

  const renew = useCallback(async (): Promise<boolean> => {
    if (refreshing.current) return true;
    refreshing.current = true;
    setRenewing(true);
    try {
      await api.refreshSession();
      setWarningSeconds(null);
      return true;
    } catch (error) {
      // A rejected refresh already ended the session inside the API client.
      if (!isSessionExpired(error)) endExpiredSession();
      return false;
    } finally {
      refreshing.current = false;
      setRenewing(false);
    }
  }, []);

  const check = useCallback(() => {
    const left = secondsLeft();
    switch (expiryAction(left)) {
      case 'logout':
        endExpiredSession();
        return;
      case 'refresh':
        void renew();
        return;
      case 'warn':
        setWarningSeconds(left);
        return;
      default:
        setWarningSeconds(null);
    }
  }, [renew]);

  useEffect(() => {
    check();
    const timer = setInterval(check, SESSION_CHECK_INTERVAL_MS);
    // Timers sleep with the tab; check again as soon as it is visible.
    const onVisible = () => document.visibilityState === 'visible' && check();
    document.addEventListener('visibilitychange', onVisible);
    const unsubscribe = subscribeToTokenRefresh(check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      unsubscribe();
    };
  }, [check]);

  if (warningSeconds === null) return null;
  const minutes = Math.max(1, Math.ceil(warningSeconds / 60));
  return (
    <div
      role="status"
      className="fixed right-4 bottom-4 left-4 z-40 rounded-2xl border border-stone-200 bg-white p-4 shadow-xl shadow-stone-900/10 sm:left-auto sm:w-88"
    >
      <p className="font-medium text-stone-900">Your session is about to expire</p>
      <p className="mt-1 text-sm text-stone-600">
        You will be signed out in about {minutes} {minutes === 1 ? 'minute' : 'minutes'}.
      </p>
      <button
        type="button"
        className={`${buttonClass('primary', 'sm')} mt-3`}
        onClick={() => void renew()}
        disabled={renewing}
      >
        {renewing ? 'Renewing...' : 'Stay signed in'}
      </button>
    </div>
  );
}
