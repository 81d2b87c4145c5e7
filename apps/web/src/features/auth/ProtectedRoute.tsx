import { useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { PageState } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { setAuthRedirect, useSession } from './session-store';

/** Protection wrapper (product spec, section 2): signed-out visitors go to /auth and come back. */
export function ProtectedRoute() {
  const { status } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const signedOut = status === 'unauthenticated';
  // A sign-out that is already navigating away (Logout goes to /) must not be sent to /auth.
  const leaving = useNavigation().state !== 'idle';

  useEffect(() => {
    if (!signedOut || leaving) return;
    setAuthRedirect(location.pathname + location.search);
    void navigate('/auth', { replace: true });
  }, [signedOut, leaving, location.pathname, location.search, navigate]);

  if (status === 'loading') {
    return (
      <PageState
        title="Checking authentication..."
        message="Please wait while we verify your session"
        busy
      />
    );
  }
  if (signedOut) {
    if (leaving) return null;
    // Visible only if the redirect above cannot happen.
    return (
      <PageState title="Authentication Required" message="Please sign in to continue">
        <Link to="/auth" className={buttonClass('primary')}>
          Sign In
        </Link>
      </PageState>
    );
  }
  return <Outlet />;
}
