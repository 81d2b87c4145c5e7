import { MESSAGES } from '@studioshot/contracts/messages';
import { useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { MAX_PHOTOS, MIN_PHOTOS } from './constants';
import { DropZone } from './DropZone';
import type { UploadProfile } from './eligibility';
import { PhotoIcon } from '../../components/icons';
import { LocalPhotoCard, UploadedPhotoCard } from './PhotoCards';
import { setSummary } from './photo-state';
import { ProgressBar } from '../../components/ProgressBar';
import { PickRejections } from './PickRejections';
import { Notice, Requirements, SetSummary, UploadCompletePanel } from './UploadPanels';
import type { UploadFlow } from './use-upload-flow';

const QUEUE_TITLE_ID = 'queue-title';

/** The upload page's working area: panels, drop zone, queue, uploaded photos, and the sidebar. */
export function UploadWorkspace({
  flow,
  profile,
  onStartTraining,
  profileNotice,
}: {
  flow: UploadFlow;
  profile: UploadProfile | undefined;
  onStartTraining: () => void;
  /** Shown above everything, e.g. "complete your profile". */
  profileNotice?: ReactNode;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const dropZoneRef = useRef<HTMLDivElement>(null);
  const summary = setSummary(flow.photos);
  const sessionCompleted = flow.session?.status === 'completed';
  const sessionClosed = flow.sessionGone || flow.sessionMissing || sessionCompleted;
  const uploadedInSet = sessionClosed ? 0 : summary.uploaded;
  // A file the server refused sits in the queue with its reason but takes no place in the set.
  const counted = flow.countedLocal.length;
  const remaining = Math.max(0, MAX_PHOTOS - uploadedInSet - counted);
  const queued = flow.pendingLocal.length;
  const total = uploadedInSet + counted;
  const loadingSession = flow.sessionId !== null && flow.status.isPending;
  const settled = !flow.running && flow.optimizing === null && queued === 0;
  const showComplete =
    !flow.sessionGone &&
    !flow.sessionMissing &&
    flow.session !== undefined &&
    settled &&
    (sessionCompleted || summary.ready);
  const showNeedMore =
    !sessionClosed &&
    settled &&
    summary.uploaded > 0 &&
    summary.checking === 0 &&
    summary.needed > 0;

  const openPicker = () => {
    dropZoneRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    inputRef.current?.click();
  };
  // Remove takes its own button away: focus goes to the queue's heading, or to the drop zone
  // when that was the last photo, never to the page (and without scrolling). The removal is
  // flushed first, so the card leaves and the focus moves in the same task: the focus never
  // rests on the page in between, not even for a frame.
  const removeLocal = (key: string) => {
    flushSync(() => flow.removeLocal(key));
    const heading = document.getElementById(QUEUE_TITLE_ID);
    (heading ?? dropZoneRef.current)?.focus({ preventScroll: true });
  };
  const uploadMore = () => {
    if (sessionCompleted) flow.startOver();
    openPicker();
  };

  const statusFailed = flow.status.isError && !flow.sessionGone && !flow.sessionMissing;

  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr] lg:gap-8">
      {/* Phones: notices first, then the counter, the work, the guidance. */}
      <div className="order-2 lg:order-none lg:col-start-2 lg:row-start-1">
        <SetSummary
          summary={sessionClosed && !sessionCompleted ? setSummary([]) : summary}
          queued={queued}
          profile={profile}
        />
      </div>

      <div className="contents min-w-0 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:block lg:space-y-6">
        <div className="order-1 space-y-6 empty:hidden lg:order-none">
          {profileNotice}

          {showComplete && (
            <UploadCompletePanel
              usable={summary.usable}
              uploaded={summary.uploaded}
              completing={flow.completing}
              canAddMore={sessionCompleted || remaining > 0}
              onStartTraining={onStartTraining}
              onUploadMore={uploadMore}
            />
          )}

          {showNeedMore && (
            <Notice
              tone="warning"
              title={`${summary.needed} more usable ${summary.needed === 1 ? 'photo' : 'photos'} needed`}
              actions={
                remaining > 0 ? (
                  <button type="button" onClick={openPicker} className={buttonClass('primary')}>
                    Add more photos
                  </button>
                ) : undefined
              }
            >
              {MESSAGES.minPhotos}: {summary.usable} of your photos can be used so far.{' '}
              {remaining > 0
                ? 'Add more photos, and remove the ones that need attention.'
                : 'Your set is full: remove the photos that need attention to make room.'}
            </Notice>
          )}

          {flow.sessionGone && (
            <Notice
              tone="warning"
              title="Upload session expired"
              actions={
                <button type="button" onClick={flow.startOver} className={buttonClass('primary')}>
                  Start a new upload
                </button>
              }
            >
              {MESSAGES.sessionExpired}
            </Notice>
          )}

          {flow.sessionMissing && (
            <Notice
              tone="warning"
              title={MESSAGES.sessionNotFound}
              actions={
                <button type="button" onClick={flow.startOver} className={buttonClass('primary')}>
                  Start a new upload
                </button>
              }
            >
              This upload may belong to another account, or it was removed.
            </Notice>
          )}

          {statusFailed && (
            <Notice
              tone="error"
              title={MESSAGES.sessionStatusFailed}
              actions={
                <button
                  type="button"
                  onClick={() => void flow.status.refetch()}
                  className={buttonClass('secondary')}
                >
                  Retry
                </button>
              }
            >
              {errorMessage(flow.status.error, MESSAGES.network)}
            </Notice>
          )}
        </div>

        <div className="order-3 min-w-0 space-y-6 lg:order-none">
          <div ref={dropZoneRef} tabIndex={-1} className="outline-none">
            <DropZone
              inputRef={inputRef}
              onFiles={(files) => void flow.addFiles(files)}
              remaining={remaining}
              disabled={remaining === 0 || sessionCompleted}
              disabledReason={
                sessionCompleted
                  ? 'This set was sent to training. Choose Upload More Photos to start a new set.'
                  : `Your set has the maximum of ${MAX_PHOTOS} photos. Remove one to add another.`
              }
            />
            <PickRejections
              rejections={flow.pickErrors}
              onDismiss={() => {
                flow.dismissPickErrors();
                // The list goes away under the focus: put it back on the picker, or on the drop
                // zone when the set is full and the picker is disabled.
                const input = inputRef.current;
                if (input && !input.disabled) input.focus();
                else dropZoneRef.current?.focus();
              }}
            />
          </div>

          {flow.optimizing && (
            <div
              className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm"
              role="status"
            >
              <p className="flex items-center gap-2 text-sm font-medium text-stone-800">
                <Spinner className="size-4 text-accent-600" />
                Optimizing photos... {flow.optimizing.done} of {flow.optimizing.total}
              </p>
              <ProgressBar
                className="mt-3"
                label="Optimizing photos"
                value={(flow.optimizing.done / Math.max(1, flow.optimizing.total)) * 100}
                valueText={`${flow.optimizing.done} of ${flow.optimizing.total} photos optimized`}
              />
            </div>
          )}

          {flow.local.length > 0 && (
            <QueueSection flow={flow} total={total} queued={queued} onRemove={removeLocal} />
          )}

          {loadingSession ? (
            <p className="flex items-center gap-2 text-sm text-stone-600" role="status">
              <Spinner className="size-4" /> Loading your photos...
            </p>
          ) : summary.uploaded > 0 && !flow.sessionMissing ? (
            <section aria-labelledby="uploaded-title">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2
                  id="uploaded-title"
                  className="font-display text-xl font-semibold text-stone-950"
                >
                  Uploaded photos
                </h2>
                <p className="text-sm text-stone-600" aria-live="polite">
                  {summary.usable} usable
                  {summary.checking > 0 ? ` · ${summary.checking} checking` : ''}
                  {summary.attention > 0 ? ` · ${summary.attention} need attention` : ''}
                </p>
              </div>
              <ul className="mt-3 grid items-start gap-3 sm:grid-cols-2">
                {flow.photos.map((photo) => (
                  <UploadedPhotoCard
                    key={photo.id}
                    photo={photo}
                    onRemove={(id) => void flow.removeUploaded(id)}
                    removing={flow.removing.has(photo.id)}
                    onConfirm={(id) => void flow.confirmUploaded(id)}
                    confirming={flow.confirming.has(photo.id)}
                    canRemove={!sessionClosed && !flow.completing}
                  />
                ))}
              </ul>
            </section>
          ) : flow.local.length === 0 && !flow.optimizing ? (
            <div className="flex flex-col items-center rounded-2xl border border-stone-200 bg-white/60 px-6 py-10 text-center">
              <PhotoIcon className="size-8 text-stone-400" />
              <h2 className="mt-3 font-display text-lg font-semibold text-stone-900">
                No photos yet
              </h2>
              <p className="mt-1 max-w-sm text-sm text-stone-600">
                Add {MIN_PHOTOS}-{MAX_PHOTOS} photos. Each one is checked for a clear, sharp, single
                face as soon as it is uploaded.
              </p>
            </div>
          ) : null}
        </div>
      </div>

      <div className="order-4 lg:order-none lg:col-start-2 lg:row-start-2">
        <Requirements />
      </div>
    </div>
  );
}

function QueueSection({
  flow,
  total,
  queued,
  onRemove,
}: {
  flow: UploadFlow;
  total: number;
  queued: number;
  onRemove: (key: string) => void;
}) {
  const progress = flow.progress;
  // Only failures another attempt may fix are retried; refused files are not counted.
  const failed = flow.local.filter((p) => p.state === 'failed').length;
  const refused = flow.local.filter((p) => p.state === 'rejected').length;
  const short = Math.max(0, MIN_PHOTOS - total);
  const retrying = failed > 0 && failed === queued;
  const label = retrying
    ? `Retry ${failed} ${failed === 1 ? 'photo' : 'photos'}`
    : `Upload ${queued} ${queued === 1 ? 'photo' : 'photos'}`;
  const title = flow.running ? 'Uploading' : queued > 0 ? 'Ready to upload' : 'Not uploaded';
  return (
    <section
      aria-labelledby={QUEUE_TITLE_ID}
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2
            id={QUEUE_TITLE_ID}
            tabIndex={-1}
            className="font-display text-xl font-semibold text-stone-950 focus:outline-none"
          >
            {title}
          </h2>
          <p className="text-sm text-stone-600">
            {flow.running
              ? 'Keep this page open until every photo is sent.'
              : queued === 0
                ? refused === 1
                  ? 'This file was refused. Remove it, or choose other photos.'
                  : 'These files were refused. Remove them, or choose other photos.'
                : short > 0
                  ? `Add ${short} more ${short === 1 ? 'photo' : 'photos'} to reach the ${MIN_PHOTOS}-photo minimum.`
                  : `${queued} ${queued === 1 ? 'photo' : 'photos'} will be uploaded and checked.`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {flow.running ? (
            <button
              type="button"
              onClick={flow.cancelUpload}
              className={buttonClass('secondary', 'sm')}
            >
              Cancel upload
            </button>
          ) : (
            <>
              <button
                type="button"
                onClick={flow.clearQueue}
                className={buttonClass('ghost', 'sm')}
                disabled={flow.optimizing !== null}
              >
                Clear
              </button>
              {queued > 0 && (
                <button
                  type="button"
                  onClick={() => void flow.startUpload()}
                  disabled={flow.optimizing !== null}
                  className={buttonClass('primary', 'sm')}
                >
                  {label}
                </button>
              )}
            </>
          )}
        </div>
      </div>

      {flow.startError && (
        <p
          role="alert"
          className="mt-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {flow.startError}
        </p>
      )}

      {progress && (
        <div className="mt-4" role="status">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <p className="min-w-0 truncate font-medium text-stone-800">
              {progress.status === 'paused'
                ? 'Paused: waiting for your connection...'
                : progress.currentFile
                  ? `Uploading ${Math.min(progress.totalFiles, progress.uploadedFiles + progress.failedFiles + 1)} of ${progress.totalFiles}: ${progress.currentFile}`
                  : `Uploading ${progress.totalFiles} photos...`}
            </p>
            <p className="text-stone-600 tabular-nums">{Math.round(progress.progress)}%</p>
          </div>
          <ProgressBar
            className="mt-2"
            label="Upload progress"
            value={progress.progress}
            valueText={`${progress.uploadedFiles} of ${progress.totalFiles} photos uploaded`}
          />
        </div>
      )}

      {!flow.running && failed + refused > 0 && (
        <div className="mt-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">
            {failed + refused} {failed + refused === 1 ? 'photo' : 'photos'} could not be uploaded.
          </p>
          <p className="mt-1">
            {[
              failed > 0 &&
                `${failed} ${failed === 1 ? 'was' : 'were'} not sent: ${retrying ? 'Retry' : 'Upload'} sends ${failed === 1 ? 'it' : 'them'} again.`,
              refused > 0 &&
                `${refused} ${refused === 1 ? 'was refused and will not be sent again: the reason is on its card.' : 'were refused and will not be sent again: the reason is on each card.'}`,
            ]
              .filter(Boolean)
              .join(' ')}
          </p>
        </div>
      )}

      <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-3 xl:grid-cols-4">
        {flow.local.map((photo) => (
          <LocalPhotoCard
            key={photo.key}
            photo={photo}
            onRemove={onRemove}
            canRemove={!flow.running}
          />
        ))}
      </ul>
    </section>
  );
}
