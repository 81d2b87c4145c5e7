import { Spinner } from './PageState';

/** First paint while the route's code arrives. */
export function PageLoader() {
  return (
    <div
      className="flex min-h-dvh items-center justify-center bg-paper text-accent-600"
      role="status"
    >
      <Spinner className="size-8" />
      <span className="sr-only">Loading Studioshot...</span>
    </div>
  );
}
