import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass, inputClass, labelClass } from '../components/ui';
import { setAuthRedirect, useSession } from '../features/auth/session-store';
import {
  DOCKED_PAGE_PADDING,
  GenerateButton,
  GenerateDock,
  NoCreditsReason,
} from '../features/generation/GenerateButton';
import { GenerationHeader } from '../features/generation/GenerationHeader';
import { GalleryNote, GenerationResults } from '../features/generation/GenerationResults';
import { STYLE_PROMPT_HINT } from '../features/generation/legacy';
import { GenerationStatus } from '../features/generation/GenerationStatus';
import { ModelSelect } from '../features/generation/ModelSelect';
import { TrainedModelsGate } from '../features/generation/ModelStates';
import { PromptField } from '../features/generation/PromptField';
import { quickPromptsFor } from '../features/generation/quick-prompts';
import { StyleCards } from '../features/generation/StyleCards';
import {
  useTrainedStudio,
  type TrainedStudioProps,
} from '../features/generation/use-trained-studio';
import { useExpectedDuration } from '../features/queue/use-durations';

const PAGE_TITLE = 'Generate Premium Headshots · Studioshot';

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
  return (
    <TrainedModelsGate
      pageTitle={PAGE_TITLE}
      titleAlways={false}
      emptyMessage="Premium headshots are made by your personal model. Upload 10-20 photos and train it first."
      // Without any model the style page generates from the best photo (it sends users with a
      // model here).
      emptyActions={(anyModel) =>
        !anyModel && (
          <Link to="/generate-simple" className={buttonClass('secondary')}>
            Generate from a Style
          </Link>
        )
      }
    >
      {(ready) => <Studio {...ready} />}
    </TrainedModelsGate>
  );
}

function Studio(props: TrainedStudioProps) {
  const studio = useTrainedStudio(props, 'Your premium headshots are ready!');
  const { model, styleId, styleName, prompt, setPrompt, generation } = studio;
  const { state, busy, done } = generation;
  const categories = quickPromptsFor(styleId);
  const [categoryId, setCategoryId] = useState(categories[0]?.id ?? '');
  const category = categories.find((c) => c.id === categoryId) ?? categories[0];
  const reasonId = useId();
  const readyIn = useExpectedDuration('generation');

  const chooseStyle = (id: string) => {
    studio.setStyleId(id);
    setCategoryId(quickPromptsFor(id)[0]?.id ?? '');
  };

  return (
    <section className={`mx-auto max-w-6xl px-4 pt-10 sm:px-6 sm:pt-14 ${DOCKED_PAGE_PADDING}`}>
      <title>{PAGE_TITLE}</title>
      <GenerationHeader
        eyebrow="Premium generation"
        title="Premium Headshots"
        account={studio.account}
        backLink
        lowCreditBanner
        sibling={{
          to: '/generate',
          title: 'Generate AI Headshots',
          offers: 'One of 60 studio templates instead',
        }}
      >
        Studio-quality 1024x1024 headshots from your own trained model. Each generation uses 1
        credit and gives you 4 images.
      </GenerationHeader>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <form
          id="generate-form"
          aria-label="Generation settings"
          onSubmit={(event) => generation.submit(event, studio.outOfCredits)}
          className={`${cardClass} space-y-8 p-6 sm:p-8`}
        >
          <ModelSelect choice={studio.choice} disabled={busy} />

          <StyleCards
            value={styleId}
            onChange={chooseStyle}
            engine={model.model_type}
            disabled={busy}
          />

          <fieldset disabled={busy}>
            <legend className={labelClass}>Quick prompts</legend>
            <p className="mt-1 text-sm text-stone-600">
              Pick a sample for {styleName}; it fills the custom prompt below.
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
            <PromptField
              id="custom-prompt"
              value={prompt}
              onChange={setPrompt}
              disabled={busy}
              rows={4}
              placeholder="Describe the shot, or leave empty for the style's studio prompt"
              className={`${inputClass} mt-2`}
              hint={STYLE_PROMPT_HINT}
            />
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
                ['Style', styleName],
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
            <GenerateDock>
              <GenerateButton
                label="Generate Premium Headshots"
                busy={busy}
                blockedBy={studio.outOfCredits ? reasonId : null}
                form="generate-form"
                className="w-full lg:mt-6"
              />
              {studio.outOfCredits ? (
                <NoCreditsReason id={reasonId} className="mt-2 lg:mt-3" />
              ) : (
                <p className="mt-2 text-center text-xs text-stone-600 lg:mt-3">
                  1 credit for 4 headshots, 1024x1024
                </p>
              )}
            </GenerateDock>
          </section>

          <GenerationStatus state={state} onRetry={() => generation.start()} />
        </aside>
      </div>

      {done && (
        <GenerationResults
          result={done}
          heading="Your Premium Headshots"
          styleLabel={styleName}
          className="mt-10"
        >
          <GalleryNote className="mt-6" />
        </GenerationResults>
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
