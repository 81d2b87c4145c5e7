import { Link } from 'react-router';
import { PageState } from './PageState';
import { buttonClass } from './ui';

/** The not-found page: an unknown address, or a page this account may not see. */
export function NotFoundPage() {
  return (
    <>
      <title>Page not found · Studioshot</title>
      <PageState title="Page not found" message="We could not find the page you were looking for.">
        <Link to="/" className={buttonClass('primary')}>
          Back to home
        </Link>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Go to dashboard
        </Link>
      </PageState>
    </>
  );
}
