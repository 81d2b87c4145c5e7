import { useCallback, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PageState, Spinner } from '../components/PageState';
import { buttonClass, cardClass, inputClass, labelClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { generateTrained } from '../features/generation/generation-api';
import { isBusy, type GenerationState } from '../features/generation/generation-machine';
import { refreshAfterGeneration, styleLabel, useStyles } from '../features/generation/hooks';
import { customPromptApplies, customPromptHint } from '../features/generation/legacy/custom-prompt';
import { GenerationOutcome } from '../features/generation/legacy/GenerationOutcome';
import { LegacyHeader } from '../features/generation/legacy/LegacyHeader';
import { ModelCards } from '../features/generation/legacy/ModelCards';
import { StyleCards } from '../features/generation/legacy/StyleCards';
import { useRevealResults } from '../features/generation/legacy/use-reveal';
import { quickPromptsFor } from '../features/generation/quick-prompts';
import { useGeneration } from '../features/generation/use-generation';
import { useProfile } from '../features/payments/hooks';
import { ArrowLeftIcon } from '../features/payments/icons';
import { LowCreditBanner } from '../features/payments/LowCreditBanner';
import { useUserModels } from '../features/training/hooks';
import type { UserModel } from '../features/training/training-api';
import { bestName } from '../lib/display-name';
import { toast } from '../lib/toast';
import { useGenerationExpectation } from '../features/queue/use-durations';

/** Model data refreshes on focus and every 30 s (api spec 7.5), as on /generate-trained. */
const MODELS_REFRESH_MS = 30_000;
const DEFAULT_STYLE = 'professional';
const PAGE_TITLE = 'Classic Generation · Studioshot';
const MODELS_LOAD_FAILED = 'Failed to load your models. Please try again.';

function preselectedModelId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Record<string, unknown>).modelId;
  return typeof id === 'string' ? id : null;
}

/**
 * /generate-trained-old: the earlier layout of the trained-model page, one numbered step under
 * another (model, style, prompt), on the same call as /generate-trained (generate-trained with
 * the model, style and prompt) and the same rules: a ready model is needed, one credit a go.
 */
export function Component() {
  const models = useUserModels({ refetchInterval: MODELS_REFRESH_MS });
  const location = useLocation();

  if (models.isPending) {
    return (
      <>
        <title>{PAGE_TITLE}</title>
        <PageState title="Loading your trained models..." busy />
      </>
    );
  }
  if (models.isError && !models.data) {
    return (
      <>
        <title>{PAGE_TITLE}</title>
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
      </>
    );
  }
  const completed = models.data.filter((model) => model.status === 'completed');
  if (completed.length === 0) {
    return (
      <>
        <title>{PAGE_TITLE}</title>
        <PageState
          title="No Trained Models Found"
          message="Headshots here are made by your personal model. Upload 10-20 photos and train it first."
        >
          <Link to="/upload" className={buttonClass('primary')}>
            Train Your Model
          </Link>
        </PageState>
      </>
    );
  }
  return <ClassicStudio models={completed} initialModelId={preselectedModelId(location.state)} />;
}

function Step({ number, children }: { number: number; children: ReactNode }) {
  return (
    <li className="sm:relative sm:pl-12">
      <span
        aria-hidden="true"
        className="mb-2 flex size-8 items-center justify-center rounded-full bg-accent-100 text-sm font-semibold text-accent-800 sm:absolute sm:top-0 sm:left-0 sm:mb-0"
      >
        {number}
      </span>
      {children}
    </li>
  );
}

function ClassicStudio({
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

  const [modelId, setModelId] = useState(() =>
    models.some((model) => model.id === initialModelId) ? initialModelId! : models[0]!.id,
  );
  const model = models.find((m) => m.id === modelId) ?? models[0]!;
  const [styleId, setStyleId] = useState(DEFAULT_STYLE);
  const [prompt, setPrompt] = useState('');
  const [bannerDismissed, setBannerDismissed] = useState(false);
  const promptHintId = useId();
  const reasonId = useId();

  const expectation = useGenerationExpectation();
  const generation = useGeneration(
    (key) =>
      generateTrained(
        { modelId: model.id, style: styleId, prompt, triggerWord: model.trigger_word },
        key,
      ),
    useCallback((outcome: GenerationState) => {
      refreshAfterGeneration();
      if (outcome.phase === 'done') toast.success('Your headshots are ready!');
    }, []),
  );
  const { state } = generation;
  const busy = isBusy(state);

  const outOfCredits = credits <= 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || outOfCredits) return;
    generation.start();
  };

  const samples = quickPromptsFor(styleId);
  const sampleValue = samples.some((c) => c.prompts.includes(prompt)) ? prompt : '';
  const currentStyleName = styleLabel(styleId, styles.data);
  const done = state.phase === 'done' ? state.result : null;
  useRevealResults(done?.id ?? null, 'results-title');

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>{PAGE_TITLE}</title>
      <Link to="/dashboard" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> Back to Dashboard
      </Link>
      <div className="mt-4">
        <LegacyHeader
          eyebrow="Classic generation"
          title="Generate with Your Model"
          name={bestName(account)}
          credits={credits}
        >
          1024x1024 headshots from your own trained model. Each generation uses 1 credit and gives
          you 4 images.{' '}
          <Link
            to="/generate-trained"
            className="font-medium whitespace-nowrap text-accent-700 underline underline-offset-4"
          >
            Try the premium page
          </Link>
        </LegacyHeader>
      </div>

      {!bannerDismissed && account && (
        <LowCreditBanner
          credits={credits}
          onDismiss={() => setBannerDismissed(true)}
          className="mt-6"
        />
      )}

      <form
        aria-label="Generation settings"
        onSubmit={submit}
        className={`${cardClass} mt-8 p-6 sm:p-8`}
      >
        <ol className="space-y-10">
          <Step number={1}>
            <ModelCards
              models={models}
              value={model.id}
              onChange={setModelId}
              disabled={busy}
              legend="Choose your model"
            />
          </Step>
          <Step number={2}>
            <StyleCards
              styles={styles.data ?? []}
              loading={styles.isPending}
              failed={styles.isError}
              onRetry={() => void styles.refetch()}
              value={styleId}
              onChange={setStyleId}
              disabled={busy}
              legend="Choose a style"
            />
          </Step>
          <Step number={3}>
            <fieldset disabled={busy}>
              <legend className={labelClass}>Describe your shot</legend>
              <div className="mt-3 space-y-4">
                <div>
                  <label htmlFor="quick-prompt" className="block text-sm text-stone-700">
                    Start from a sample (optional)
                  </label>
                  <select
                    id="quick-prompt"
                    value={sampleValue}
                    onChange={(event) => setPrompt(event.target.value)}
                    disabled={busy}
                    className={`${inputClass} mt-1.5`}
                  >
                    <option value="">Choose a sample prompt...</option>
                    {samples.map((category) => (
                      <optgroup key={category.id} label={category.name}>
                        {category.prompts.map((sample) => (
                          <option key={sample} value={sample}>
                            {sample}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor="custom-prompt" className="block text-sm text-stone-700">
                    Custom prompt
                  </label>
                  <textarea
                    id="custom-prompt"
                    value={prompt}
                    onChange={(event) => setPrompt(event.target.value)}
                    disabled={busy}
                    rows={3}
                    maxLength={1000}
                    aria-describedby={promptHintId}
                    placeholder="Leave empty for the style's studio prompt"
                    className={`${inputClass} mt-1.5`}
                  />
                  <p id={promptHintId} className="mt-2 text-xs text-stone-600">
                    {customPromptHint(customPromptApplies(account))}
                  </p>
                </div>
              </div>
            </fieldset>
          </Step>
        </ol>

        <div className="mt-10 flex flex-col gap-3 border-t border-stone-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-stone-600">
            <span className="font-medium break-words text-stone-900">
              {model.name || `Model ${model.id.slice(0, 8)}`}
            </span>
            , {currentStyleName} style: 4 headshots for 1 credit.
          </p>
          <button
            type="submit"
            disabled={busy || outOfCredits}
            aria-describedby={outOfCredits ? reasonId : undefined}
            className={`${buttonClass('primary', 'lg')} w-full shrink-0 sm:w-auto`}
          >
            {busy && <Spinner className="size-4" />}
            {busy ? 'Generating...' : 'Generate Headshots'}
          </button>
        </div>
        {outOfCredits && (
          <p id={reasonId} className="mt-3 text-sm text-stone-600 sm:text-right">
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
      </form>

      <GenerationOutcome
        state={state}
        done={done}
        expectation={expectation}
        styleLabel={currentStyleName}
        onRetry={() => generation.start()}
      />
    </section>
  );
}
