// First: it configures zod before any module parses with it.
import './lib/zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { AppRouter } from './app/AppRouter';
import { routes } from './app/router';
import { endExpiredSession, setSessionNavigator } from './features/auth/session-actions';
import { restoreSession } from './features/auth/session-store';
import { setSessionExpiredHandler } from './lib/api';
import { queryClient } from './lib/query-client';
import { STORAGE_KEYS } from './lib/storage';
import './styles.css';

restoreSession();
// Signing in or out in another tab applies here too.
window.addEventListener('storage', (event) => {
  if (
    event.key === null ||
    event.key === STORAGE_KEYS.accessToken ||
    event.key === STORAGE_KEYS.user
  ) {
    restoreSession();
  }
});

const router = createBrowserRouter(routes);
setSessionNavigator((path) => void router.navigate(path));
setSessionExpiredHandler(endExpiredSession);

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AppRouter router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
