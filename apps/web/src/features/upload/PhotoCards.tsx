import { SAME_PERSON_ADVICE, type UploadedPhoto } from '@studioshot/contracts';
import { useId, useState } from 'react';
import { Spinner } from '../../components/PageState';
import { ProgressBar } from '../../components/ProgressBar';
import {
  AlertIcon,
  CheckIcon,
  CrossIcon,
  DashIcon,
  PhotoIcon,
  TrashIcon,
} from '../../components/icons';
import {
  failedChecks,
  PHOTO_STATE_LABEL,
  photoState,
  UNCHECKED_ADVICE,
  type PhotoState,
} from './photo-state';
import type { LocalPhoto } from './use-photo-selection';

const API_BASE = (import.meta.env.VITE_API_BASE ?? '').replace(/\/+$/, '');

/** Thumbnail addresses are same-origin paths; prefix them when the API lives elsewhere. */
export function imageSrc(url: string): string {
  return url.startsWith('/') ? `${API_BASE}${url}` : url;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const BADGE: Record<PhotoState, string> = {
  checking: 'bg-stone-100 text-stone-700',
  usable: 'bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200',
  attention: 'bg-amber-50 text-amber-900 ring-1 ring-amber-200',
  unchecked: 'bg-amber-50 text-amber-900 ring-1 ring-amber-200',
};

export function StateBadge({ state }: { state: PhotoState }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[state]}`}
    >
      {state === 'checking' ? (
        <Spinner className="size-3.5" />
      ) : state === 'usable' ? (
        <CheckIcon className="size-3.5" />
      ) : (
        <AlertIcon className="size-3.5" />
      )}
      {PHOTO_STATE_LABEL[state]}
    </span>
  );
}

function RemoveButton({
  label,
  onClick,
  busy,
  overlay = false,
}: {
  label: string;
  onClick: () => void;
  busy?: boolean;
  overlay?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={busy}
      aria-label={label}
      title={label}
      className={
        overlay
          ? 'absolute top-1.5 right-1.5 flex size-8 items-center justify-center rounded-full bg-stone-950/70 text-white shadow-sm backdrop-blur-sm transition-colors hover:bg-stone-950/90 disabled:opacity-60'
          : '-m-1 flex size-8 shrink-0 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-900 disabled:opacity-60'
      }
    >
      {busy ? (
        <Spinner className="size-4" />
      ) : overlay ? (
        <CrossIcon />
      ) : (
        <TrashIcon className="size-[1.1rem]" />
      )}
    </button>
  );
}

/**
 * A photo waiting on this device: its preview, size, and its own upload progress or error. A file
 * the server refused shows no preview (it may not be a picture at all) but its reason, for good,
 * with a Remove button; a file whose preview cannot be drawn shows a placeholder, never a broken
 * image.
 */
export function LocalPhotoCard({
  photo,
  onRemove,
  canRemove,
}: {
  photo: LocalPhoto;
  onRemove: (key: string) => void;
  /** False while an upload runs: the queue it sends is fixed. */
  canRemove: boolean;
}) {
  const nameId = useId();
  const [unreadable, setUnreadable] = useState(false);
  const uploading = photo.state === 'uploading';
  const rejected = photo.state === 'rejected';
  const showPreview = photo.previewUrl !== null && !unreadable && !rejected;
  return (
    <li>
      <article
        aria-labelledby={nameId}
        data-upload-state={photo.state}
        className={`h-full overflow-hidden rounded-xl border bg-white shadow-sm ${photo.state === 'failed' || rejected ? 'border-red-200' : 'border-stone-200'}`}
      >
        <div className="relative aspect-square bg-stone-100">
          {showPreview ? (
            <img
              src={photo.previewUrl ?? undefined}
              alt=""
              onError={() => setUnreadable(true)}
              className={`size-full object-cover transition-opacity ${uploading ? 'opacity-70' : ''}`}
            />
          ) : (
            <div
              className={`flex size-full flex-col items-center justify-center gap-1 px-2 text-center text-xs ${rejected ? 'bg-red-50 text-red-800' : 'text-stone-500'}`}
            >
              {rejected ? <AlertIcon className="size-7" /> : <PhotoIcon className="size-8" />}
              {rejected ? 'Not uploaded' : unreadable ? 'No preview' : null}
            </div>
          )}
          {canRemove && !uploading && !rejected && (
            <RemoveButton
              overlay
              label={`Remove ${photo.name}`}
              onClick={() => onRemove(photo.key)}
            />
          )}
        </div>
        <div className="space-y-1.5 p-2.5">
          <p id={nameId} className="truncate text-sm font-medium text-stone-900" title={photo.name}>
            {photo.name}
          </p>
          {uploading ? (
            <>
              <p className="text-xs text-stone-600">
                {photo.progress < 100 ? `Uploading ${photo.progress}%` : 'Processing...'}
              </p>
              <ProgressBar size="sm" value={photo.progress} label={`Uploading ${photo.name}`} />
            </>
          ) : rejected ? (
            <>
              <p className="text-xs text-red-800">
                <span className="font-semibold">Refused:</span> {photo.error}
              </p>
              {canRemove && (
                <button
                  type="button"
                  onClick={() => onRemove(photo.key)}
                  aria-label={`Remove ${photo.name}`}
                  className="inline-flex items-center gap-1 rounded-md text-xs font-semibold text-red-800 underline underline-offset-2 hover:text-red-950"
                >
                  <TrashIcon className="size-3.5" /> Remove
                </button>
              )}
            </>
          ) : photo.state === 'failed' ? (
            <p className="text-xs text-red-700" role="alert">
              {photo.error}
            </p>
          ) : (
            <p className="text-xs text-stone-500">
              {formatBytes(photo.file.size)}
              {photo.optimized ? ` · optimized from ${formatBytes(photo.originalSize)}` : ''}
            </p>
          )}
        </div>
      </article>
    </li>
  );
}

function CheckMark({ ok }: { ok: boolean | null }) {
  if (ok === true) return <CheckIcon className="size-3.5 text-emerald-700" />;
  if (ok === false) return <CrossIcon className="size-3.5 text-red-700" />;
  return <DashIcon className="size-3.5 text-stone-400" />;
}

/**
 * The same-person check's warning under a photo it flagged, with the owner's answer: "This is me"
 * overrules it (the photo then counts, if nothing else failed), and once answered it says so.
 */
function SamePersonWarning({
  photo,
  message,
  onConfirm,
  confirming,
  canConfirm,
}: {
  photo: UploadedPhoto;
  message: string;
  onConfirm: (id: string) => void;
  confirming: boolean;
  canConfirm: boolean;
}) {
  const confirmed = photo.same_person_confirmed_at !== null;
  return (
    <div
      role="group"
      aria-label="Same-person check"
      className="mt-2 rounded-lg bg-amber-50 p-2 text-xs leading-relaxed text-amber-950 ring-1 ring-amber-200"
    >
      {confirmed ? (
        <p className="flex items-start gap-1.5">
          <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-emerald-700" />
          <span>
            <span className="font-semibold">You confirmed this is you.</span> The check said:{' '}
            {message}.
          </span>
        </p>
      ) : (
        <>
          <p className="flex items-start gap-1.5">
            <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
            <span>
              <span className="font-semibold">{message}.</span> {SAME_PERSON_ADVICE} If it is you,
              say so and it counts toward your set.
            </span>
          </p>
          {canConfirm && (
            <button
              type="button"
              onClick={() => onConfirm(photo.id)}
              disabled={confirming}
              aria-busy={confirming || undefined}
              className="mt-1.5 inline-flex items-center gap-1.5 rounded-md bg-white px-2.5 py-1 text-xs font-semibold text-stone-900 ring-1 ring-stone-300 transition-colors hover:bg-stone-50 disabled:opacity-60"
            >
              {confirming ? <Spinner className="size-3.5" /> : <CheckIcon className="size-3.5" />}
              This is me
            </button>
          )}
        </>
      )}
    </div>
  );
}

/** An uploaded photo with its check results beside the thumbnail. */
export function UploadedPhotoCard({
  photo,
  onRemove,
  removing,
  canRemove,
  onConfirm,
  confirming,
}: {
  photo: UploadedPhoto;
  onRemove: (id: string) => void;
  removing: boolean;
  /** False once the set is closed: no photo leaves it, and none is confirmed into it. */
  canRemove: boolean;
  onConfirm: (id: string) => void;
  confirming: boolean;
}) {
  const nameId = useId();
  const state = photoState(photo);
  const flagged = photo.checks.find((check) => check.id === 'same_person' && check.ok === false);
  // The same-person check warns (below, with "This is me"); the others are failures.
  const failed = failedChecks(photo).filter((check) => check.id !== 'same_person');
  const advice = (state === 'unchecked' ? [UNCHECKED_ADVICE] : photo.advice).filter(
    (tip) => tip !== SAME_PERSON_ADVICE,
  );
  return (
    <li>
      <article
        aria-labelledby={nameId}
        data-state={state}
        className={`flex gap-3 rounded-xl border bg-white p-3 shadow-sm ${state === 'attention' || state === 'unchecked' ? 'border-amber-200' : 'border-stone-200'}`}
      >
        <div className="relative size-20 shrink-0 overflow-hidden rounded-lg bg-stone-100 sm:size-24">
          <img
            src={imageSrc(photo.thumbnail_url)}
            alt={`Thumbnail of ${photo.filename}`}
            loading="lazy"
            className="size-full object-cover"
          />
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <p
              id={nameId}
              className="min-w-0 truncate pt-0.5 text-sm font-medium text-stone-900"
              title={photo.filename}
            >
              {photo.filename}
            </p>
            {canRemove && (
              <RemoveButton
                label={`Remove ${photo.filename}`}
                onClick={() => onRemove(photo.id)}
                busy={removing}
              />
            )}
          </div>
          <div className="mt-1">
            <StateBadge state={state} />
          </div>
          {state === 'checking' && (
            <p className="mt-2 text-xs text-stone-500">Checking face, sharpness and size...</p>
          )}
          {state === 'usable' && !flagged && (
            <p className="mt-2 text-xs text-stone-500">
              All checks passed · {photo.width}×{photo.height} px
            </p>
          )}
          {failed.length > 0 && (
            <ul className="mt-2 space-y-0.5 text-sm text-red-800" aria-label="Failed checks">
              {failed.map((check) => (
                <li key={check.id} className="flex items-start gap-1.5">
                  <CrossIcon className="mt-0.5 size-3.5 shrink-0" />
                  <span>{check.message}</span>
                </li>
              ))}
            </ul>
          )}
          {(state === 'attention' || state === 'unchecked') && advice.length > 0 && (
            <ul
              className="mt-1.5 space-y-1 text-xs leading-relaxed text-stone-600"
              aria-label="Advice"
            >
              {advice.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          )}
          {flagged && (
            <SamePersonWarning
              photo={photo}
              message={flagged.message}
              onConfirm={onConfirm}
              confirming={confirming}
              canConfirm={canRemove}
            />
          )}
          {photo.checks.length > 0 && (
            <details className="group mt-2 text-xs">
              <summary className="cursor-pointer rounded font-medium text-stone-600 select-none hover:text-stone-900">
                All checks
              </summary>
              <ul className="mt-1.5 space-y-1">
                {photo.checks.map((check) => (
                  <li key={check.id} className="flex items-start gap-1.5 text-stone-700">
                    <span className="mt-px">
                      <CheckMark ok={check.ok} />
                    </span>
                    <span>
                      <span className="sr-only">
                        {check.ok === true
                          ? 'Passed: '
                          : check.ok === false
                            ? 'Failed: '
                            : 'Not judged: '}
                      </span>
                      {check.message}
                    </span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </article>
    </li>
  );
}
