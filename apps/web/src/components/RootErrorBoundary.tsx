import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { PageState } from './PageState';
import { buttonClass } from './ui';

function RouteErrorState() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof Error &&
    /dynamically imported module|Importing a module script|Failed to fetch/i.test(error.message);
  const title = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : chunkFailed
      ? 'A new version is available'
      : 'Something went wrong';
  const message = chunkFailed
    ? 'Reload the page to get the latest version of Studioshot.'
    : 'Something went wrong on our side. Please try again.';

  return (
    <PageState title={title} message={message} tone="error">
      <button
        type="button"
        className={buttonClass('primary')}
        onClick={() => window.location.reload()}
      >
        Reload page
      </button>
      <Link to="/" className={buttonClass('secondary')} reloadDocument>
        Back to home
      </Link>
    </PageState>
  );
}

/** A page failed to render or its code failed to load (e.g. after a deploy): keeps the shell. */
export function RouteErrorBoundary() {
  return <RouteErrorState />;
}

/** Last resort when the shell itself failed. */
export function RootErrorBoundary() {
  return (
    <div className="flex min-h-dvh flex-col bg-paper">
      <RouteErrorState />
    </div>
  );
}
