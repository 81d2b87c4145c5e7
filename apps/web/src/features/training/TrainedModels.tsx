import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { formatDate } from '../payments/catalogue';
import { AlertIcon, SparkIcon } from '../../components/icons';
import { StatusBadge } from './StatusBadge';
import { clampProgress, isActiveStatus, shortId, type ModelRow } from './training-logic';

const EMPTY: ReadonlySet<string> = new Set();

/** Navigation state of /training/{id} opened from this list: the redirect waits 3 s, not 2. */
export const FROM_MODEL_LIST = { from: 'models' } as const;

function ModelItem({
  row,
  hasCredits,
  onGenerate,
  onDelete,
  deleting,
}: {
  row: ModelRow;
  hasCredits: boolean;
  onGenerate: (modelId: string) => void;
  onDelete?: (row: ModelRow) => void;
  deleting: boolean;
}) {
  const titleId = useId();
  const created = formatDate(row.created_at);
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="flex flex-col gap-4 py-4 sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="font-medium break-words text-stone-950">
              {row.name}
            </h3>
            <StatusBadge status={row.status} />
          </div>
          <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-sm text-stone-500">
            {row.model_type && <span>{row.model_type}</span>}
            {created && <span>Created {created}</span>}
            <span>
              ID <span className="font-mono text-xs text-stone-600">{shortId(row.id)}</span>
            </span>
          </p>
          {row.status === 'failed' && (
            <p className="mt-2 flex items-start gap-1.5 text-sm text-red-800">
              <AlertIcon className="mt-0.5 size-4 shrink-0" />
              <span className="break-words">
                Training failed: {row.error_message?.trim() || 'Unknown error'}
              </span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-col items-stretch gap-1 sm:items-end">
          {deleting ? (
            <p role="status" className="flex items-center gap-2 text-sm text-stone-600">
              <Spinner className="size-4" />
              Deleting...
            </p>
          ) : row.status === 'completed' ? (
            <>
              <button
                type="button"
                onClick={() => onGenerate(row.id)}
                className={`${buttonClass(hasCredits ? 'primary' : 'secondary', 'sm')} ${hasCredits ? '' : 'opacity-70'}`}
              >
                Generate Headshots
              </button>
              {!hasCredits && (
                <span className="text-center text-xs font-medium text-accent-700 sm:text-right">
                  Need credits
                </span>
              )}
            </>
          ) : row.status === 'failed' ? (
            <Link to="/upload" className={buttonClass('secondary', 'sm')}>
              Retry Training
            </Link>
          ) : (
            <button type="button" disabled className={buttonClass('secondary', 'sm')}>
              <Spinner className="size-4" />
              Training...
            </button>
          )}
          {onDelete && !deleting && (
            <button
              type="button"
              onClick={() => onDelete(row)}
              aria-label={`Delete model ${row.name}`}
              className={buttonClass('ghost', 'sm')}
            >
              Delete
            </button>
          )}
        </div>
      </article>
    </li>
  );
}

/**
 * The dashboard's Trained Models list (product spec): name, status badge (completed reads
 * Ready), model_type, created date, the first 8 characters of the id and Generate Headshots
 * (only once completed; 'Need credits' without credits). Models in progress also get a pill
 * linking to their live status; a failed one shows its reason and a way to retry.
 */
export function TrainedModels({
  rows,
  loading,
  hasCredits,
  onGenerate,
  onTrainFirst,
  trainAction,
  onDelete,
  deleting = EMPTY,
}: {
  rows: readonly ModelRow[];
  loading: boolean;
  hasCredits: boolean;
  onGenerate: (modelId: string) => void;
  /** The empty list's Train Your First Model; left out where the page offers a clearer step. */
  onTrainFirst?: () => void;
  /** The section's Train New Model control. */
  trainAction?: ReactNode;
  /** Each model's Delete action (the dashboard confirms first). */
  onDelete?: (row: ModelRow) => void;
  /** Models being deleted: shown so until they are gone. */
  deleting?: ReadonlySet<string>;
}) {
  const active = rows.filter((row) => isActiveStatus(row.status));
  return (
    <section aria-labelledby="models-heading" className={`${cardClass} p-6`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="models-heading" className="font-display text-xl font-semibold text-stone-950">
          Trained Models
          {rows.length > 0 && (
            <span className="ml-2 align-middle text-sm font-normal text-stone-500">
              ({rows.length})
            </span>
          )}
        </h2>
        {trainAction}
      </div>

      {active.length > 0 && (
        <ul className="mt-4 flex flex-wrap gap-2" aria-label="Models in training">
          {active.map((row) => (
            <li key={row.id}>
              <Link
                to={`/training/${encodeURIComponent(row.id)}`}
                state={FROM_MODEL_LIST}
                className="inline-flex max-w-full items-center gap-2 rounded-full bg-accent-50 px-3 py-1.5 text-sm font-medium text-accent-800 ring-1 ring-accent-200 hover:bg-accent-100"
              >
                <SparkIcon className="size-4 shrink-0 animate-pulse" />
                <span className="truncate">Training {row.name}</span>
                <span className="tabular-nums">{clampProgress(row.progress)}%</span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {loading && rows.length === 0 ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Loading your models...
        </p>
      ) : rows.length === 0 ? (
        <div className="mt-4 rounded-xl border border-dashed border-stone-300 px-6 py-10 text-center">
          <SparkIcon className="mx-auto size-8 text-accent-600" />
          <h3 className="mt-3 font-display text-lg font-semibold text-stone-950">
            No Trained Models Yet
          </h3>
          <p className="mx-auto mt-1 max-w-sm text-sm text-stone-600">
            Upload 10-20 photos of yourself and we will train a personal model that knows your face.
          </p>
          {onTrainFirst && (
            <button
              type="button"
              onClick={onTrainFirst}
              className={`${buttonClass('primary')} mt-5`}
            >
              Train Your First Model
            </button>
          )}
        </div>
      ) : (
        <ul className="mt-2 divide-y divide-stone-100">
          {rows.map((row) => (
            <ModelItem
              key={row.id}
              row={row}
              hasCredits={hasCredits}
              onGenerate={onGenerate}
              onDelete={onDelete}
              deleting={deleting.has(row.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
