import {
  EXPORT_KEPT_HOURS,
  EXPORT_LINK_MINUTES,
  MESSAGES,
  type DataExport,
} from '@studioshot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Spinner } from '../../components/PageState';
import { ProgressBar } from '../../components/ProgressBar';
import { FormError } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { formatBytes, formatDateTime } from './format';
import { PhotoSetsList } from './PhotoSetsList';
import { fetchExports, requestExport } from './settings-api';
import { SettingsSection } from './SettingsSection';
import { settingsKeys } from './query-keys';

/** How often the page asks while an export is being built. */
export const EXPORT_POLL_MS = 1000;
/** While one is ready: its link is renewed well before it stops working. */
const LINK_RENEW_MS = 60_000;

const building = (e: DataExport | undefined) => e?.status === 'queued' || e?.status === 'running';

function DownloadReady({ item }: { item: DataExport }) {
  const href = `${import.meta.env.VITE_API_BASE ?? ''}${item.download_url ?? ''}`;
  return (
    <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4">
      <p className="font-medium text-emerald-900">
        Your data is ready{item.size_bytes !== null ? ` (${formatBytes(item.size_bytes)})` : ''}.
      </p>
      <p className="mt-1 text-sm text-emerald-900">
        A zip of your headshots, the photos we still hold, and your account as JSON. The file is
        deleted on {formatDateTime(item.expires_at ?? '')}.
      </p>
      <a href={href} download className={`${buttonClass('primary')} mt-4`}>
        Download zip
      </a>
    </div>
  );
}

export function ExportSection() {
  const exports = useQuery({
    queryKey: settingsKeys.exports(),
    queryFn: fetchExports,
    refetchInterval: (query) => {
      const latest = query.state.data?.[0];
      if (building(latest)) return EXPORT_POLL_MS;
      return latest?.status === 'completed' ? LINK_RENEW_MS : false;
    },
  });
  const request = useMutation({
    mutationFn: requestExport,
    onSuccess: (started) => {
      queryClient.setQueryData<DataExport[]>(settingsKeys.exports(), (list = []) => [
        started,
        ...list.filter((e) => e.id !== started.id),
      ]);
    },
  });
  const latest = exports.data?.[0];

  const requestButton = (label: string) => (
    <button
      type="button"
      onClick={() => request.mutate()}
      disabled={request.isPending}
      className={buttonClass(latest?.status === 'completed' ? 'secondary' : 'primary')}
    >
      {request.isPending && <Spinner className="size-4" />}
      {label}
    </button>
  );

  return (
    <SettingsSection
      title="Your data"
      description={`Download everything we hold about you: your headshots, the photos we still keep, and your account, payments, credits and models as JSON. The link works for ${EXPORT_LINK_MINUTES} minutes and the file is deleted after ${EXPORT_KEPT_HOURS} hours.`}
    >
      <div className="space-y-4" aria-live="polite">
        {exports.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-stone-600">
            <Spinner className="size-4" /> Checking for an export...
          </p>
        ) : exports.isError ? (
          <div role="alert" className="space-y-3">
            <p className="text-sm text-red-800">
              {errorMessage(exports.error, MESSAGES.settingsLoadFailed)}
            </p>
            <button
              type="button"
              onClick={() => void exports.refetch()}
              className={buttonClass('secondary', 'sm')}
            >
              Try again
            </button>
          </div>
        ) : building(latest) && latest ? (
          <div className="space-y-2">
            <p className="text-sm font-medium text-stone-800">
              Preparing your download... {latest.progress}%
            </p>
            <ProgressBar value={latest.progress} minVisible={5} label="Preparing your download" />
            <p className="text-sm text-stone-600">
              You can leave this page: the file keeps being prepared.
            </p>
          </div>
        ) : (
          <>
            {latest?.status === 'completed' && <DownloadReady item={latest} />}
            {latest?.status === 'failed' && (
              <FormError message={latest.error_message ?? MESSAGES.exportFailed} />
            )}
            {latest?.status === 'expired' && (
              <p className="text-sm text-stone-600">
                Your last export was deleted {EXPORT_KEPT_HOURS} hours after it was made.
              </p>
            )}
            <FormError
              message={request.isError ? errorMessage(request.error, MESSAGES.exportFailed) : null}
            />
            {requestButton(
              latest?.status === 'completed'
                ? 'Prepare a new download'
                : latest?.status === 'failed'
                  ? 'Try again'
                  : 'Download my data',
            )}
          </>
        )}
      </div>
      <PhotoSetsList />
    </SettingsSection>
  );
}
