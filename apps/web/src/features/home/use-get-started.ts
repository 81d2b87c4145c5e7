import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { setAuthRedirect, useSession } from '../auth/session-store';
import { getStartedTarget } from './get-started';

/**
 * Get Started (product spec, Home): signed out opens Create Account and continues to /pricing.
 */
export function useGetStarted() {
  const navigate = useNavigate();
  const { status } = useSession();
  const [busy, setBusy] = useState(false);

  const start = useCallback(async () => {
    if (status !== 'authenticated') {
      setAuthRedirect('/pricing');
      await navigate('/auth?mode=signup');
      return;
    }
    setBusy(true);
    try {
      const target = await getStartedTarget(api);
      if (target) await navigate(target);
    } finally {
      setBusy(false);
    }
  }, [navigate, status]);

  return { start, busy };
}
