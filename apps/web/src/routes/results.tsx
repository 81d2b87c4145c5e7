import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AlertIcon, CheckCircleIcon } from '../components/icons';
import { OutcomePanel } from '../components/OutcomePanel';
import { PageState, Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { RESULTS_START_DELAY_MS, startCountdown } from '../features/generation/countdown';
import {
  generateForPayment,
  paymentIdempotencyKey,
  type GenerationResult,
} from '../features/generation/generation-api';
import type { GenerationState } from '../features/generation/generation-machine';
import { GenerationProgress } from '../features/generation/GenerationProgress';
import { HeadshotGrid } from '../features/generation/HeadshotGrid';
import { IncompleteSetNote, PromptNote } from '../features/generation/GenerationResults';
import { refreshAfterGeneration, styleLabel, useStyles } from '../features/generation/hooks';
import { DownloadIcon } from '../components/icons';
import { useImageDownloads } from '../features/generation/use-downloads';
import { useGeneration } from '../features/generation/use-generation';
import {
  DEFAULT_GENERATION_PROMPT,
  DEFAULT_GENERATION_STYLE,
} from '../features/payments/payment-params';
import { useExpectedDuration } from '../features/queue/use-durations';

/** The spec's 'Post-payment' failure message (error catalogue). */
const POST_PAYMENT_FAILED = 'Failed to generate images';
const NO_RESULTS_FALLBACK = 'Unable to generate images at this time.';

const USES = [
  {
    title: 'Professional Use',
    body: 'LinkedIn, your company website, email signatures and the team page.',
  },
  {
    title: 'Social Media',
    body: 'Profile pictures for X, Instagram, Facebook and every professional network.',
  },
  {
    title: 'Applications',
    body: 'Job applications, speaker and author bios, press kits and conference badges.',
  },
];

function formatDollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

function NoResults({ message }: { message: string }) {
  return (
    <PageState title="No Results Found" message={message || NO_RESULTS_FALLBACK} tone="error">
      <Link to="/generate" className={buttonClass('primary')}>
        Generate Headshots
      </Link>
    </PageState>
  );
}

export function Component() {
  const [params] = useSearchParams();
  const paymentIntent = params.get('payment_intent')?.trim() || null;
  const style = params.get('style')?.trim() || DEFAULT_GENERATION_STYLE;
  const prompt = params.get('prompt')?.trim() || DEFAULT_GENERATION_PROMPT;

  return (
    <>
      <title>Your Headshots · Studioshot</title>
      {paymentIntent ? (
        // A new payment in the address starts over.
        <PaidResults
          key={paymentIntent}
          paymentIntent={paymentIntent}
          style={style}
          prompt={prompt}
        />
      ) : (
        <NoResults message={MESSAGES.paymentNotFound} />
      )}
    </>
  );
}

function PaidResults({
  paymentIntent,
  style,
  prompt,
}: {
  paymentIntent: string;
  style: string;
  prompt: string;
}) {
  const styles = useStyles();
  const label = styleLabel(style, styles.data);
  const readyIn = useExpectedDuration('generation');
  const generation = useGeneration(
    // The payment is the key: a reload asks for the generation this payment already has.
    () => generateForPayment({ paymentIntent, style, prompt }),
    useCallback((_outcome: GenerationState) => refreshAfterGeneration(), []),
  );
  const { state, start } = generation;
  const [secondsLeft, setSecondsLeft] = useState<number | null>(
    Math.ceil(RESULTS_START_DELAY_MS / 1000),
  );

  // The spec's 2-second wait before the generation begins.
  useEffect(
    () =>
      startCountdown({
        totalMs: RESULTS_START_DELAY_MS,
        onTick: setSecondsLeft,
        onDone: () => {
          setSecondsLeft(null);
          start(paymentIdempotencyKey(paymentIntent));
        },
      }),
    [paymentIntent, start],
  );

  if (state.phase === 'idle') {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <div className={`${cardClass} p-6 sm:p-8`} role="status" aria-busy="true">
          <div className="flex items-center gap-3">
            <Spinner className="size-5 text-accent-600" />
            <h1 className="font-display text-2xl font-semibold text-stone-950">
              Preparing your headshots
            </h1>
          </div>
          <p className="mt-3 text-stone-600">
            {secondsLeft !== null
              ? `Starting your generation in ${secondsLeft} ${secondsLeft === 1 ? 'second' : 'seconds'}...`
              : 'Starting your generation...'}
            {readyIn && ` This usually takes ${readyIn}.`}
          </p>
        </div>
      </section>
    );
  }

  if (state.phase === 'submitting' || state.phase === 'running' || state.phase === 'collecting') {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <h1 className="sr-only">Generating your headshots</h1>
        <GenerationProgress
          state={state}
          title="Generating your professional headshots"
          expectation={readyIn ? `This usually takes ${readyIn}` : null}
        />
        <p className="mt-4 text-center text-sm text-stone-600">
          {label} style. You can stay on this page; your headshots appear here when they are ready.
        </p>
      </section>
    );
  }

  if (state.phase === 'failed') {
    const { failure } = state;
    // A refusal (no such payment, not a generation order, not paid): nothing to show here.
    if (failure.kind === 'rejected' || failure.kind === 'credits') {
      return <NoResults message={failure.message} />;
    }
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <OutcomePanel
          tone="error"
          role="alert"
          titleId="generation-failed-title"
          title="Generation Failed"
          icon={<AlertIcon className="size-6" />}
          actions={
            <>
              {failure.kind === 'interrupted' && (
                // No answer came: the same payment asks again for its generation.
                <button
                  type="button"
                  onClick={() => start(paymentIdempotencyKey(paymentIntent))}
                  className={buttonClass('primary')}
                >
                  Check Again
                </button>
              )}
              <Link
                to="/generate"
                className={buttonClass(failure.kind === 'interrupted' ? 'secondary' : 'primary')}
              >
                Try Again
              </Link>
            </>
          }
        >
          <p className="mt-2 break-words text-stone-700">
            {failure.message || POST_PAYMENT_FAILED}
          </p>
        </OutcomePanel>
      </section>
    );
  }

  return <Ready result={state.result} styleName={label} />;
}

function Ready({ result, styleName }: { result: GenerationResult; styleName: string }) {
  const { saving, save, saveAll } = useImageDownloads();
  const count = result.images.length;
  const stats = [
    { label: 'Images', value: String(count) },
    {
      label: 'Generation time',
      value: result.generation_time !== null ? `${result.generation_time} seconds` : '—',
    },
    { label: 'Cost', value: formatDollars(result.cost) },
  ];

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <div className={`${cardClass} p-6 sm:p-8`}>
        <div className="flex items-start gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-700 ring-1 ring-emerald-200">
            <CheckCircleIcon className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
              Your Professional Headshots Are Ready!
            </h1>
            <p className="mt-2 text-stone-600">
              {count} {count === 1 ? 'headshot' : 'headshots'} in the {styleName} style, 1024x1024,
              ready to download.
            </p>
            <IncompleteSetNote result={result} className="mt-3" />
            <PromptNote result={result} className="mt-3" />
          </div>
        </div>
        <dl className="mt-6 grid gap-3 sm:grid-cols-3">
          {stats.map((stat) => (
            <div key={stat.label} className="min-w-0 rounded-xl bg-stone-50 px-4 py-3">
              <dt className="text-xs font-medium tracking-wide text-stone-600 uppercase">
                {stat.label}
              </dt>
              <dd className="mt-1 font-display text-xl font-semibold text-stone-950 tabular-nums">
                {stat.value}
              </dd>
            </div>
          ))}
        </dl>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <button
            type="button"
            onClick={() => void saveAll(result.images)}
            disabled={saving !== null}
            className={buttonClass('primary')}
          >
            {saving === 'all' ? <Spinner className="size-4" /> : <DownloadIcon />}
            Download All Images
          </button>
          <Link to="/generate" className={buttonClass('secondary')}>
            Generate More
          </Link>
        </div>
      </div>

      <div className="mt-10">
        <HeadshotGrid
          images={result.images}
          heading="Your Headshots"
          headingId="results-gallery-title"
          styleLabel={styleName}
          showRank={false}
          saving={saving}
          onSave={(image) => void save(image)}
        />
      </div>

      <section aria-labelledby="uses-title" className="mt-14">
        <h2 id="uses-title" className="font-display text-2xl font-semibold text-stone-950">
          How to Use Your Headshots
        </h2>
        <div className="mt-5 grid gap-4 sm:grid-cols-3">
          {USES.map((use) => (
            <div key={use.title} className="rounded-2xl bg-white/60 p-5 ring-1 ring-stone-200">
              <h3 className="font-medium text-stone-950">{use.title}</h3>
              <p className="mt-1.5 text-sm text-stone-600">{use.body}</p>
            </div>
          ))}
        </div>
      </section>

      <p className="mt-12 border-t border-stone-200 pt-6 text-center text-sm text-stone-600">
        Want another look?{' '}
        <Link to="/generate" className="font-medium text-accent-700 underline underline-offset-4">
          Generate more headshots
        </Link>
      </p>
    </section>
  );
}
