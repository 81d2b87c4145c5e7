import type { ReactNode } from 'react';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { MAX_PHOTOS, MIN_PHOTOS, RECOMMENDED_MIN_PX } from './constants';
import { slotsLeft, type UploadProfile } from './eligibility';
import { CheckIcon, CrossIcon } from '../../components/icons';
import { OutcomePanel } from '../../components/OutcomePanel';
import { ProgressBar } from '../../components/ProgressBar';
import type { setSummary } from './photo-state';
import { PhotoRetentionNote } from '../settings/privacy-facts';

type Summary = ReturnType<typeof setSummary>;

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-2">
      <dt className="text-stone-600">{label}</dt>
      <dd className="font-medium text-stone-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** The usable-photo counter against the 10 needed, the set's counts, and the training slots. */
export function SetSummary({
  summary,
  queued,
  profile,
}: {
  summary: Summary;
  queued: number;
  profile: UploadProfile | undefined;
}) {
  const trained = profile?.models_trained ?? 0;
  const limit = profile?.training_limit ?? 0;
  const left = profile ? slotsLeft(profile) : 0;
  return (
    <section aria-labelledby="set-summary-title" className={`${cardClass} p-5 sm:p-6`}>
      <h2 id="set-summary-title" className="text-sm font-semibold text-stone-900">
        Your photo set
      </h2>
      <p className="mt-3 flex items-baseline gap-2" aria-live="polite">
        <span className="font-display text-4xl font-semibold text-stone-950 tabular-nums">
          {summary.usable}
        </span>
        <span className="text-stone-600">
          {summary.usable >= MIN_PHOTOS
            ? `usable photos (${MIN_PHOTOS} needed)`
            : `of ${MIN_PHOTOS} usable photos`}
        </span>
      </p>
      <ProgressBar
        className="mt-3"
        value={(Math.min(summary.usable, MIN_PHOTOS) / MIN_PHOTOS) * 100}
        tone={summary.usable >= MIN_PHOTOS ? 'success' : 'accent'}
        label="Usable photos"
        valueText={`${summary.usable} of ${MIN_PHOTOS} usable photos`}
      />
      <p className="mt-2 text-sm text-stone-600">
        {summary.ready
          ? 'Your set is ready for training.'
          : summary.needed > 0
            ? `${summary.needed} more usable ${summary.needed === 1 ? 'photo' : 'photos'} needed.`
            : 'Finishing the checks...'}
      </p>
      <dl className="mt-4 divide-y divide-stone-100 border-t border-stone-100 text-sm">
        <Row label="Uploaded" value={`${summary.uploaded} / ${MAX_PHOTOS}`} />
        {summary.checking > 0 && <Row label="Checking" value={summary.checking} />}
        {summary.attention > 0 && <Row label="Need attention" value={summary.attention} />}
        {queued > 0 && <Row label="Ready to upload" value={queued} />}
        <Row
          label="Training slots used"
          value={
            <span>
              {trained}/{limit}
              <span className="ml-1.5 font-normal text-stone-500">({left} left)</span>
            </span>
          }
        />
      </dl>
    </section>
  );
}

const DO = [
  `${MIN_PHOTOS}-${MAX_PHOTOS} recent photos of just you`,
  `At least ${RECOMMENDED_MIN_PX} px on the shorter side (recommended); camera originals are best`,
  'One face per photo, with your head and shoulders filling much of the frame',
  'Good, even light; sharp and in focus',
  'Different angles, expressions, outfits and backgrounds',
];
const AVOID = [
  'Sunglasses or hats',
  'Group shots or other people',
  'Heavy filters or blurry photos',
];

/** What makes a good training set. */
export function Requirements() {
  return (
    <section aria-labelledby="requirements-title" className={`${cardClass} p-5 sm:p-6`}>
      <h2 id="requirements-title" className="text-sm font-semibold text-stone-900">
        Photo requirements
      </h2>
      <ul className="mt-3 space-y-2 text-sm text-stone-700">
        {DO.map((item) => (
          <li key={item} className="flex items-start gap-2">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-700" />
            <span>{item}</span>
          </li>
        ))}
      </ul>
      <h3 className="mt-5 text-xs font-semibold tracking-[0.14em] text-stone-500 uppercase">
        Avoid
      </h3>
      <ul className="mt-2 space-y-2 text-sm text-stone-700">
        {AVOID.map((item) => (
          <li key={item} className="flex items-start gap-2">
            <CrossIcon className="mt-0.5 size-4 shrink-0 text-red-700" />
            <span>{item}</span>
          </li>
        ))}
      </ul>
      <p className="mt-5 text-xs text-stone-500">
        JPEG, PNG or WebP, up to 50MB each. Large photos are resized to 1024 px on this device
        before upload.
      </p>
      <PhotoRetentionNote className="mt-3" />
    </section>
  );
}

/** The set is checked and has enough usable photos: start training, or add more first. */
export function UploadCompletePanel({
  usable,
  uploaded,
  completing,
  canAddMore,
  onStartTraining,
  onUploadMore,
}: {
  usable: number;
  uploaded: number;
  completing: boolean;
  canAddMore: boolean;
  onStartTraining: () => void;
  onUploadMore: () => void;
}) {
  return (
    <OutcomePanel
      tone="success"
      titleId="upload-complete-title"
      title="Upload Complete"
      icon={<CheckIcon className="size-5" />}
      actions={
        <>
          <button
            type="button"
            onClick={onStartTraining}
            disabled={completing}
            className={buttonClass('primary', 'lg')}
          >
            {completing && <Spinner className="size-4" />}
            {completing ? 'Starting...' : 'Start Training'}
          </button>
          <button
            type="button"
            onClick={onUploadMore}
            disabled={!canAddMore || completing}
            className={buttonClass('secondary', 'lg')}
          >
            Upload More Photos
          </button>
        </>
      }
      footer={
        !canAddMore && (
          <p className="mt-3 text-sm text-stone-500">
            Your set has the maximum of {MAX_PHOTOS} photos. Remove one to add another.
          </p>
        )
      }
    >
      <p className="mt-1 text-stone-600">
        {usable} of {uploaded} photos are ready for training.
        {usable < uploaded ? ' Photos that need attention are left out.' : ''} Next, name your model
        and start training.
      </p>
    </OutcomePanel>
  );
}

/** A notice at the top of the workspace: a title, a line, and actions. */
export function Notice({
  title,
  children,
  actions,
  tone = 'neutral',
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'warning' | 'error';
}) {
  const tones = {
    neutral: 'border-stone-200 bg-white',
    warning: 'border-amber-200 bg-amber-50/70',
    error: 'border-red-200 bg-red-50',
  } as const;
  return (
    <section
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-2xl border p-5 shadow-sm sm:p-6 ${tones[tone]}`}
    >
      <h2 className="font-display text-xl font-semibold text-stone-950">{title}</h2>
      {children && <div className="mt-1 text-sm text-stone-700">{children}</div>}
      {actions && <div className="mt-4 flex flex-wrap gap-3">{actions}</div>}
    </section>
  );
}
