import { Link } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass } from '../components/ui';

export function Component() {
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
