import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { PageState, Spinner } from '../components/PageState';
import { buttonClass, cardClass, inputClass, labelClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { generateWithStyle } from '../features/generation/generation-api';
import { isBusy, type GenerationState } from '../features/generation/generation-machine';
import { refreshAfterGeneration, styleLabel, useStyles } from '../features/generation/hooks';
import { customPromptApplies, customPromptHint } from '../features/generation/legacy/custom-prompt';
import { GenerationOutcome } from '../features/generation/legacy/GenerationOutcome';
import { LegacyHeader } from '../features/generation/legacy/LegacyHeader';
import { StyleCards } from '../features/generation/legacy/StyleCards';
import { useRevealResults } from '../features/generation/legacy/use-reveal';
import { useGeneration } from '../features/generation/use-generation';
import { useProfile } from '../features/payments/hooks';
import { useUserModels } from '../features/training/hooks';
import { bestName } from '../lib/display-name';
import { toast } from '../lib/toast';
import { useGenerationExpectation } from '../features/queue/use-durations';

/** The legacy style page (product spec): its defaults and its one button. */
export const DEFAULT_PROMPT = 'professional headshot in business attire';
const DEFAULT_STYLE = 'professional';
const GENERATE_LABEL = 'Generate 4 Headshots (1 credit)';
const PAGE_TITLE = 'Generate Headshots · Studioshot';
const MODELS_LOAD_FAILED = 'Failed to load your models. Please try again.';

/**
 * /generate-simple: the legacy style-based generate page. A user who already has any model is
 * sent to /generate-trained; everyone else picks a style, describes the shot and generates 4
 * headshots for 1 credit (from their best checked photo, as they have no model yet).
 */
export function Component() {
  const models = useUserModels();

  if (models.isPending) {
    return (
      <>
        <title>{PAGE_TITLE}</title>
        <PageState title="Loading your studio..." busy />
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
  // Product spec: a user who already has any model goes to the trained-model page.
  if (models.data.length > 0) return <Navigate to="/generate-trained" replace />;
  return <StyleStudio />;
}

function StyleStudio() {
  const { user } = useSession();
  const profile = useProfile();
  const styles = useStyles();
  const account = profile.data ?? user;
  const credits = account?.credits_balance ?? 0;

  const [styleId, setStyleId] = useState(DEFAULT_STYLE);
  const [prompt, setPrompt] = useState(DEFAULT_PROMPT);
  const promptHintId = useId();
  const reasonId = useId();

  const expectation = useGenerationExpectation();
  const generation = useGeneration(
    (key) => generateWithStyle({ style: styleId, prompt }, key),
    useCallback((outcome: GenerationState) => {
      refreshAfterGeneration();
      if (outcome.phase === 'done') toast.success('Your headshots are ready!');
    }, []),
  );
  const { state } = generation;
  const busy = isBusy(state);

  // Product spec, validation: the legacy page needs a balance of at least 1 credit.
  const outOfCredits = credits < 1;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || outOfCredits) return;
    generation.start();
  };

  const currentStyleName = styleLabel(styleId, styles.data);
  const done = state.phase === 'done' ? state.result : null;
  useRevealResults(done?.id ?? null, 'results-title');

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>{PAGE_TITLE}</title>
      <LegacyHeader
        eyebrow="Style studio"
        title="Generate Headshots"
        name={bestName(account)}
        credits={credits}
      >
        Pick a style, describe your ideal shot, and get 4 studio headshots for 1 credit.
      </LegacyHeader>

      <aside
        aria-labelledby="source-title"
        className="mt-6 flex flex-col gap-3 rounded-2xl border border-accent-200 bg-accent-50 px-5 py-4 sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="min-w-0">
          <h2 id="source-title" className="font-medium text-stone-950">
            Made from your best photo
          </h2>
          <p className="mt-0.5 text-sm text-stone-700">
            You have no trained model yet, so we restyle the sharpest photo you uploaded. Train your
            personal model for headshots that look even more like you.
          </p>
        </div>
        <Link to="/upload" className={`${buttonClass('secondary', 'sm')} shrink-0`}>
          Train Your Model
        </Link>
      </aside>

      <form
        aria-label="Generation settings"
        onSubmit={submit}
        className={`${cardClass} mt-6 space-y-8 p-6 sm:p-8`}
      >
        <StyleCards
          styles={styles.data ?? []}
          loading={styles.isPending}
          failed={styles.isError}
          onRetry={() => void styles.refetch()}
          value={styleId}
          onChange={setStyleId}
          disabled={busy}
        />

        <div>
          <label htmlFor="ideal-shot" className={labelClass}>
            Describe Your Ideal Shot
          </label>
          <textarea
            id="ideal-shot"
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            disabled={busy}
            rows={3}
            maxLength={1000}
            aria-describedby={promptHintId}
            className={`${inputClass} mt-2`}
          />
          <p id={promptHintId} className="mt-2 text-xs text-stone-600">
            {customPromptHint(customPromptApplies(account))}
          </p>
        </div>

        <div className="flex flex-col gap-3 border-t border-stone-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-stone-600">
            4 headshots, 1024x1024, in the {currentStyleName} style. Uses 1 credit.
          </p>
          <button
            type="submit"
            disabled={busy || outOfCredits}
            aria-describedby={outOfCredits ? reasonId : undefined}
            className={`${buttonClass('primary', 'lg')} w-full shrink-0 sm:w-auto`}
          >
            {busy && <Spinner className="size-4" />}
            {busy ? 'Generating...' : GENERATE_LABEL}
          </button>
        </div>
        {outOfCredits && (
          <p id={reasonId} className="-mt-4 text-sm text-stone-600 sm:text-right">
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
        footer={
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
        }
      />
    </section>
  );
}
