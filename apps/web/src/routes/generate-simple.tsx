import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { buttonClass, cardClass, inputClass, labelClass } from '../components/ui';
import { generateWithStyle } from '../features/generation/generation-api';
import { GenerationHeader } from '../features/generation/GenerationHeader';
import { GalleryNote } from '../features/generation/GenerationResults';
import { useGenerationAccount, useStyleChoice } from '../features/generation/hooks';
import { GenerateRow, GenerationOutcome, STYLE_PROMPT_HINT } from '../features/generation/legacy';
import { ModelsLoadFailed, ModelsLoading } from '../features/generation/ModelStates';
import { PromptField } from '../features/generation/PromptField';
import { StyleCards } from '../features/generation/StyleCards';
import { usePageGeneration } from '../features/generation/use-page-generation';
import { useUserModels } from '../features/training/hooks';
import { useWaitEstimate } from '../features/queue/use-durations';

/** The legacy style page (product spec): its defaults and its one button. */
export const DEFAULT_PROMPT = 'professional headshot in business attire';
const GENERATE_LABEL = 'Generate 4 Headshots (1 credit)';
const PAGE_TITLE = 'Generate Headshots · Studioshot';

/**
 * /generate-simple: the legacy style-based generate page. A user who already has any model is
 * sent to /generate-trained; everyone else picks a style, describes the shot and generates 4
 * headshots for 1 credit (from their best checked photo, as they have no model yet).
 */
export function Component() {
  const models = useUserModels();

  if (models.isPending) {
    return <ModelsLoading title="Loading your studio..." pageTitle={PAGE_TITLE} />;
  }
  if (models.isError && !models.data) {
    return <ModelsLoadFailed onRetry={() => void models.refetch()} pageTitle={PAGE_TITLE} />;
  }
  // Product spec: a user who already has any model goes to the trained-model page.
  if (models.data.length > 0) return <Navigate to="/generate-trained" replace />;
  return <StyleStudio />;
}

function StyleStudio() {
  const { account, credits } = useGenerationAccount();
  const { styleId, setStyleId, styleName } = useStyleChoice();
  const [prompt, setPrompt] = useState(DEFAULT_PROMPT);
  // Without a model the API's default engine restyles the photo; until the queue names it, the
  // cards promise only what every engine renders (the studio text).
  const restylingEngine = useWaitEstimate('generation').data?.engineKind ?? 'studio';

  const generation = usePageGeneration(
    (key) => generateWithStyle({ style: styleId, prompt }, key),
    { readyMessage: 'Your headshots are ready!' },
  );
  const { busy } = generation;

  // Product spec, validation: the legacy page needs a balance of at least 1 credit.
  const outOfCredits = credits < 1;

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>{PAGE_TITLE}</title>
      <GenerationHeader eyebrow="Style studio" title="Generate Headshots" account={account} greet>
        Pick a style, describe your ideal shot, and get 4 studio headshots for 1 credit.
      </GenerationHeader>

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
        onSubmit={(event) => generation.submit(event, outOfCredits)}
        className={`${cardClass} mt-6 space-y-8 p-6 sm:p-8`}
      >
        <StyleCards
          value={styleId}
          onChange={setStyleId}
          engine={restylingEngine}
          disabled={busy}
        />

        <div>
          <label htmlFor="ideal-shot" className={labelClass}>
            Describe Your Ideal Shot
          </label>
          <PromptField
            id="ideal-shot"
            value={prompt}
            onChange={setPrompt}
            disabled={busy}
            rows={3}
            className={`${inputClass} mt-2`}
            hint={STYLE_PROMPT_HINT}
          />
        </div>

        <GenerateRow
          label={GENERATE_LABEL}
          busy={busy}
          outOfCredits={outOfCredits}
          reasonClassName="-mt-4"
        >
          4 headshots, 1024x1024, in the {styleName} style. Uses 1 credit.
        </GenerateRow>
      </form>

      <GenerationOutcome
        generation={generation}
        styleLabel={styleName}
        footer={<GalleryNote className="mt-6" />}
      />
    </section>
  );
}
