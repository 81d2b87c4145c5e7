import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { PageState, Spinner } from '../components/PageState';
import { buttonClass, cardClass, inputClass, labelClass } from '../components/ui';
import { setAuthRedirect, useSession } from '../features/auth/session-store';
import { generateTrained, type GeneratedImage } from '../features/generation/generation-api';
import { isBusy, type GenerationState } from '../features/generation/generation-machine';
import { GenerationProgress } from '../features/generation/GenerationProgress';
import { HeadshotGrid } from '../features/generation/HeadshotGrid';
import { refreshAfterGeneration, styleLabel, useStyles } from '../features/generation/hooks';
import { quickPromptsFor } from '../features/generation/quick-prompts';
import { useImageDownloads } from '../features/generation/use-downloads';
import { useGeneration } from '../features/generation/use-generation';
import { useProfile } from '../features/payments/hooks';
import { ArrowLeftIcon } from '../features/payments/icons';
import { LowCreditBanner } from '../features/payments/LowCreditBanner';
import { LOW_CREDIT_THRESHOLD } from '../features/payments/catalogue';
import { useUserModels } from '../features/training/hooks';
import type { UserModel } from '../features/training/training-api';
import { AlertIcon } from '../components/icons';
import { toast } from '../lib/toast';
import { useExpectedDuration } from '../features/queue/use-durations';

/** Model data refreshes on focus and every 30 s (api spec 7.5). */
const MODELS_REFRESH_MS = 30_000;
const DEFAULT_STYLE = 'professional';
const MODELS_LOAD_FAILED = 'Failed to load your models. Please try again.';

function preselectedModelId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Record<string, unknown>).modelId;
  return typeof id === 'string' ? id : null;
}

/** The server uses a custom prompt for premium annual plans and debug accounts only. */
function customPromptApplies(account: {
  plan_type?: string | null;
  subscription_interval?: string | null;
  is_debug?: boolean;
}): boolean {
  return (
    account.is_debug === true ||
    (account.plan_type === 'premium' && account.subscription_interval === 'annual')
  );
}

export function Component() {
  const { status } = useSession();
  if (status === 'loading') {
    return <PageState title="Loading your trained models..." busy />;
  }
  if (status === 'unauthenticated') {
    return (
      <PageState title="Please log in to generate headshots">
        <Link
          to="/auth"
          onClick={() => setAuthRedirect('/generate-trained')}
          className={buttonClass('primary')}
        >
          Go to Login
        </Link>
      </PageState>
    );
  }
  return <SignedIn />;
}

function SignedIn() {
  const models = useUserModels({ refetchInterval: MODELS_REFRESH_MS });
  const location = useLocation();

  if (models.isPending) {
    return (
      <>
        <title>Generate Premium Headshots · Studioshot</title>
        <PageState title="Loading your trained models..." busy />
      </>
    );
  }
  if (models.isError && !models.data) {
    return (
      <PageState title="Could not load your models" message={MODELS_LOAD_FAILED} tone="error">
        <button
          type="button"
          onClick={() => void models.refetch()}
          className={buttonClass('primary')}
        >
          Retry
        </button>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Back to Dashboard
        </Link>
      </PageState>
    );
  }
  const completed = models.data.filter((model) => model.status === 'completed');
  if (completed.length === 0) {
    return (
      <PageState
        title="No Trained Models Found"
        message="Premium headshots are made by your personal model. Upload 10-20 photos and train it first."
      >
        <Link to="/upload" className={buttonClass('primary')}>
          Train Your Model
        </Link>
        {/* Without any model the style page generates from the best photo (it sends users
            with a model here). */}
        {models.data.length === 0 && (
          <Link to="/generate-simple" className={buttonClass('secondary')}>
            Generate from a Style
          </Link>
        )}
      </PageState>
    );
  }
  return <Studio models={completed} initialModelId={preselectedModelId(location.state)} />;
}

function Studio({
  models,
  initialModelId,
}: {
  models: UserModel[];
  initialModelId: string | null;
}) {
  const { user } = useSession();
  const profile = useProfile();
  const styles = useStyles();
  const account = profile.data ?? user;
  const credits = account?.credits_balance ?? 0;

  // The model from the navigation state when it is one of the ready models, else the first.
  const [modelId, setModelId] = useState(() =>
    models.some((model) => model.id === initialModelId) ? initialModelId! : models[0]!.id,
  );
  const model = models.find((m) => m.id === modelId) ?? models[0]!;
  const [styleId, setStyleId] = useState(DEFAULT_STYLE);
  const categories = quickPromptsFor(styleId);
  const [categoryId, setCategoryId] = useState(categories[0]?.id ?? '');
  const category = categories.find((c) => c.id === categoryId) ?? categories[0];
  const [prompt, setPrompt] = useState('');
  const [bannerDismissed, setBannerDismissed] = useState(false);
  const reasonId = useId();
  const promptHintId = useId();

  const readyIn = useExpectedDuration('generation');
  const expectation = readyIn ? `Usually ready in ${readyIn}` : null;
  const generation = useGeneration(
    (key) =>
      generateTrained(
        { modelId: model.id, style: styleId, prompt, triggerWord: model.trigger_word },
        key,
      ),
    useCallback((outcome: GenerationState) => {
      refreshAfterGeneration();
      if (outcome.phase === 'done') toast.success('Your premium headshots are ready!');
    }, []),
  );
  const { state } = generation;
  const busy = isBusy(state);
  const { saving, save, saveAll } = useImageDownloads();

  const chooseStyle = (id: string) => {
    setStyleId(id);
    setCategoryId(quickPromptsFor(id)[0]?.id ?? '');
  };

  const outOfCredits = credits <= 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || outOfCredits) return;
    generation.start();
  };

  const styleList = styles.data ?? [];
  const currentStyleName = styleLabel(styleId, styles.data);
  const done = state.phase === 'done' ? state.result : null;

  // The images arrive below the form: bring them into view, and focus there for screen readers.
  const resultsId = done?.id ?? null;
  useEffect(() => {
    if (!resultsId) return;
    const heading = document.getElementById('results-title');
    heading?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [resultsId]);

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Generate Premium Headshots · Studioshot</title>
      <Link to="/dashboard" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> Back to Dashboard
      </Link>

      <div className="mt-4 flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Premium generation
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            Premium Headshots
          </h1>
          <p className="mt-2 max-w-2xl text-stone-600">
            Studio-quality 1024x1024 headshots from your own trained model. Each generation uses 1
            credit and gives you 4 images.
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3">
          <p
            aria-live="polite"
            className="rounded-full border border-stone-200 bg-white px-4 py-2 text-sm font-medium text-stone-800 shadow-sm"
          >
            <span className="font-semibold text-stone-950 tabular-nums">{credits}</span>{' '}
            {credits === 1 ? 'credit' : 'credits'}
          </p>
          {credits <= LOW_CREDIT_THRESHOLD && (
            <Link to="/credits" className={buttonClass('primary', 'sm')}>
              Buy Credits
            </Link>
          )}
        </div>
      </div>

      {!bannerDismissed && account && (
        <LowCreditBanner
          credits={credits}
          onDismiss={() => setBannerDismissed(true)}
          className="mt-6"
        />
      )}

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <form
          id="generate-form"
          aria-label="Generation settings"
          onSubmit={submit}
          className={`${cardClass} space-y-8 p-6 sm:p-8`}
        >
          <div>
            <label htmlFor="model-picker" className={labelClass}>
              Trained model
            </label>
            <select
              id="model-picker"
              value={model.id}
              onChange={(event) => setModelId(event.target.value)}
              disabled={busy}
              className={`${inputClass} mt-2`}
            >
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name || `Model ${m.id.slice(0, 8)}`}
                </option>
              ))}
            </select>
          </div>

          <fieldset disabled={busy}>
            <legend className={labelClass}>Style</legend>
            {styles.isError && !styles.data && (
              <p role="alert" className="mt-2 text-sm text-red-700">
                Could not load the styles.{' '}
                <button
                  type="button"
                  onClick={() => void styles.refetch()}
                  className="font-medium underline underline-offset-4"
                >
                  Retry
                </button>
              </p>
            )}
            {styles.isPending && (
              <p className="mt-2 flex items-center gap-2 text-sm text-stone-600">
                <Spinner className="size-4" /> Loading styles...
              </p>
            )}
            <div className="mt-3 grid gap-3 sm:grid-cols-3">
              {styleList.map((style) => (
                <label
                  key={style.id}
                  className="relative flex cursor-pointer flex-col rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition-colors hover:border-stone-300 has-[:checked]:border-accent-500 has-[:checked]:bg-accent-50 has-[:checked]:ring-1 has-[:checked]:ring-accent-300 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-600"
                >
                  <input
                    type="radio"
                    name="style"
                    value={style.id}
                    checked={styleId === style.id}
                    onChange={() => chooseStyle(style.id)}
                    className="sr-only"
                  />
                  <span className="font-medium text-stone-950">{style.name}</span>
                  <span className="mt-1 text-sm text-stone-600">{style.description}</span>
                  <span className="mt-3 flex flex-wrap gap-1.5">
                    {style.use_cases.slice(0, 2).map((use) => (
                      <span
                        key={use}
                        className="rounded-full bg-stone-100 px-2 py-0.5 text-xs text-stone-700"
                      >
                        {use}
                      </span>
                    ))}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset disabled={busy}>
            <legend className={labelClass}>Quick prompts</legend>
            <p className="mt-1 text-sm text-stone-600">
              Pick a sample for {currentStyleName}; it fills the custom prompt below.
            </p>
            <div role="group" aria-label="Prompt categories" className="mt-3 flex flex-wrap gap-2">
              {categories.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  aria-pressed={c.id === category?.id}
                  onClick={() => setCategoryId(c.id)}
                  className={`rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors ${
                    c.id === category?.id
                      ? 'border-accent-600 bg-accent-600 text-white'
                      : 'border-stone-300 bg-white text-stone-800 hover:border-stone-400'
                  }`}
                >
                  {c.name}
                </button>
              ))}
            </div>
            {category && (
              <ul aria-label={`${category.name} prompts`} className="mt-3 grid gap-2">
                {category.prompts.map((sample) => (
                  <li key={sample}>
                    <button
                      type="button"
                      onClick={() => setPrompt(sample)}
                      aria-pressed={prompt === sample}
                      className="w-full rounded-xl border border-stone-200 bg-stone-50 px-4 py-2.5 text-left text-sm text-stone-800 transition-colors hover:border-stone-300 hover:bg-white aria-pressed:border-accent-400 aria-pressed:bg-accent-50"
                    >
                      {sample}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>

          <div>
            <div className="flex items-center justify-between gap-3">
              <label htmlFor="custom-prompt" className={labelClass}>
                Custom prompt
              </label>
              <button
                type="button"
                onClick={() => setPrompt('')}
                disabled={busy || prompt === ''}
                className={buttonClass('ghost', 'sm')}
              >
                Clear
              </button>
            </div>
            <textarea
              id="custom-prompt"
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              disabled={busy}
              rows={4}
              maxLength={1000}
              aria-describedby={promptHintId}
              placeholder="Describe the shot, or leave empty for the style's studio prompt"
              className={`${inputClass} mt-2`}
            />
            <p id={promptHintId} className="mt-2 text-xs text-stone-600">
              {account && customPromptApplies(account)
                ? 'Your prompt is used as written; "person" stands for you.'
                : 'Custom prompts are used on the Premium annual plan. Without one, your headshots follow the studio prompt of the style you chose.'}
            </p>
          </div>
        </form>

        <aside className="space-y-6 lg:sticky lg:top-24">
          <section aria-labelledby="summary-title" className={`${cardClass} p-6`}>
            <h2 id="summary-title" className="font-display text-xl font-semibold text-stone-950">
              Your generation
            </h2>
            <dl className="mt-4 space-y-2 text-sm">
              {[
                ['Model', model.name || model.id.slice(0, 8)],
                ['Style', currentStyleName],
                ['Images', '4 headshots, 1024x1024'],
                // From the queue's estimate (durations.ts); the row keeps its place while that
                // is unknown, so nothing moves when it arrives.
                ['Ready in', readyIn ?? '—'],
                ['Cost', '1 credit'],
              ].map(([label, value]) => (
                <div key={label} className="flex justify-between gap-4">
                  <dt className="text-stone-600">{label}</dt>
                  <dd className="text-right font-medium break-words text-stone-900">{value}</dd>
                </div>
              ))}
            </dl>
            <button
              type="submit"
              form="generate-form"
              disabled={busy || outOfCredits}
              aria-describedby={outOfCredits ? reasonId : undefined}
              className={`${buttonClass('primary', 'lg')} mt-6 w-full`}
            >
              {busy && <Spinner className="size-4" />}
              {busy ? 'Generating...' : 'Generate Premium Headshots'}
            </button>
            {outOfCredits && (
              <p id={reasonId} className="mt-3 text-sm text-stone-600">
                You have 0 credits.{' '}
                <Link
                  to="/credits"
                  className="font-medium text-accent-700 underline underline-offset-4"
                >
                  Buy credits
                </Link>{' '}
                to generate.
              </p>
            )}
          </section>

          {busy && (
            <GenerationProgress
              state={state}
              title="Generating your headshots"
              expectation={expectation}
            />
          )}
          {state.phase === 'failed' && (
            <FailurePanel
              state={state}
              onRetry={() => generation.start()}
              canRetry={state.failure.kind !== 'credits'}
            />
          )}
        </aside>
      </div>

      {done && (
        <div className="mt-10">
          <HeadshotGrid
            images={done.images}
            heading="Your Premium Headshots"
            headingId="results-title"
            description={
              <>
                {done.images.length} headshots, 1024x1024
                {done.generation_time !== null && `, ready in ${done.generation_time} seconds`}.
                Best likeness first.
              </>
            }
            styleLabel={currentStyleName}
            saving={saving}
            onSave={(image: GeneratedImage) => void save(image)}
            onSaveAll={() => void saveAll(done.images)}
          />
          <p className="mt-6 text-sm text-stone-600">
            Every headshot is kept in{' '}
            <Link
              to="/gallery"
              className="font-medium text-accent-700 underline underline-offset-4"
            >
              My Headshots
            </Link>
            .
          </p>
        </div>
      )}

      <p className="mt-10 text-sm text-stone-600">
        Prefer the earlier layout?{' '}
        <Link
          to="/generate-trained-old"
          className="font-medium text-accent-700 underline underline-offset-4"
        >
          Open the classic generation page
        </Link>
        .
      </p>
    </section>
  );
}

function FailurePanel({
  state,
  onRetry,
  canRetry,
}: {
  state: Extract<GenerationState, { phase: 'failed' }>;
  onRetry: () => void;
  canRetry: boolean;
}) {
  const credits = state.failure.kind === 'credits';
  return (
    <section
      role="alert"
      aria-labelledby="generation-failed-title"
      className="rounded-2xl border border-red-200 bg-red-50 p-6"
    >
      <div className="flex items-start gap-3">
        <AlertIcon className="mt-1 size-5 shrink-0 text-red-700" />
        <div className="min-w-0">
          <h2
            id="generation-failed-title"
            className="font-display text-xl font-semibold text-red-900"
          >
            {credits ? 'Out of credits' : 'Generation failed'}
          </h2>
          <p className="mt-1 text-sm break-words text-red-800">
            {credits ? MESSAGES.insufficientCredits : state.failure.message}
          </p>
          {state.failure.kind === 'failed' &&
            !/given back|refunded/i.test(state.failure.message) && (
              <p className="mt-1 text-sm text-red-800">Your credit has been given back.</p>
            )}
        </div>
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        {credits ? (
          <Link to="/credits" className={buttonClass('primary', 'sm')}>
            Buy Credits
          </Link>
        ) : (
          canRetry && (
            <button type="button" onClick={onRetry} className={buttonClass('primary', 'sm')}>
              Try Again
            </button>
          )
        )}
      </div>
    </section>
  );
}
