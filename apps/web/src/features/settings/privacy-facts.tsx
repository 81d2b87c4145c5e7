import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchPrivacyFacts } from './settings-api';
import { settingsKeys } from './query-keys';

/** The server's retention numbers; they change only with its configuration. */
export function usePrivacyFacts() {
  return useQuery({
    queryKey: settingsKeys.privacy(),
    queryFn: fetchPrivacyFacts,
    staleTime: 30 * 60_000,
  });
}

/** The upload page's promise about the photos, with the server's own number of days. */
export function PhotoRetentionNote({ className = '' }: { className?: string }) {
  const facts = usePrivacyFacts();
  const days = facts.data?.photo_retention_days;
  return (
    <p className={`text-xs text-stone-600 ${className}`}>
      Your photos are cleaned of location and camera data, used only for your own model, and deleted{' '}
      {days !== undefined ? (
        <strong className="font-semibold text-stone-800">
          {days} {days === 1 ? 'day' : 'days'} after your training finishes
        </strong>
      ) : (
        'a set time after your training finishes'
      )}
      . Your headshots stay until you delete them.{' '}
      <Link to="/privacy" className="font-medium text-accent-700 underline underline-offset-4">
        Privacy
      </Link>
    </p>
  );
}
