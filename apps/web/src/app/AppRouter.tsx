import { flushSync } from 'react-dom';
import { RouterProvider, type createBrowserRouter } from 'react-router';

type Router = ReturnType<typeof createBrowserRouter>;

// Same as react-router/dom's provider, but via the main entry only: one copy of the router
// context everywhere, tests included. flushSync backs navigate(to, { flushSync: true }).
const flushDomUpdates = (update: () => unknown): undefined => {
  flushSync(update);
};

export function AppRouter({ router }: { router: Router }) {
  return <RouterProvider router={router} flushSync={flushDomUpdates} />;
}
