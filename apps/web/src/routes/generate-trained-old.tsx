import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cardClass, inputClass, labelClass } from '../components/ui';
import { GenerationHeader } from '../features/generation/GenerationHeader';
import {
  GenerateRow,
  GenerationOutcome,
  ModelCards,
  STYLE_PROMPT_HINT,
} from '../features/generation/legacy';
import { modelName } from '../features/generation/model-choice';
import { TrainedModelsGate } from '../features/generation/ModelStates';
import { PromptField } from '../features/generation/PromptField';
import { quickPromptsFor } from '../features/generation/quick-prompts';
import { StyleCards } from '../features/generation/StyleCards';
import {
  useTrainedStudio,
  type TrainedStudioProps,
} from '../features/generation/use-trained-studio';

const PAGE_TITLE = 'Classic Generation · Studioshot';

/**
 * /generate-trained-old: the earlier layout of the trained-model page, one numbered step under
 * another (model, style, prompt), on the same call as /generate-trained (generate-trained with
 * the model, style and prompt) and the same rules: a ready model is needed, one credit a go.
 */
export function Component() {
  return (
    <TrainedModelsGate
      pageTitle={PAGE_TITLE}
      emptyMessage="Headshots here are made by your personal model. Upload 10-20 photos and train it first."
    >
      {(ready) => <ClassicStudio {...ready} />}
    </TrainedModelsGate>
  );
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

function ClassicStudio(props: TrainedStudioProps) {
  const studio = useTrainedStudio(props, 'Your headshots are ready!');
  const { model, styleId, styleName, prompt, setPrompt, generation } = studio;
  const { busy } = generation;
  const samples = quickPromptsFor(styleId);
  const sampleValue = samples.some((c) => c.prompts.includes(prompt)) ? prompt : '';

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>{PAGE_TITLE}</title>
      <GenerationHeader
        eyebrow="Classic generation"
        title="Generate with Your Model"
        account={studio.account}
        backLink
        greet
        lowCreditBanner
      >
        1024x1024 headshots from your own trained model. Each generation uses 1 credit and gives you
        4 images.{' '}
        <Link
          to="/generate-trained"
          className="font-medium whitespace-nowrap text-accent-700 underline underline-offset-4"
        >
          Try the premium page
        </Link>
      </GenerationHeader>

      <form
        aria-label="Generation settings"
        onSubmit={(event) => generation.submit(event, studio.outOfCredits)}
        className={`${cardClass} mt-8 p-6 sm:p-8`}
      >
        <ol className="space-y-10">
          <Step number={1}>
            <ModelCards choice={studio.choice} disabled={busy} legend="Choose your model" />
          </Step>
          <Step number={2}>
            <StyleCards
              value={styleId}
              onChange={studio.setStyleId}
              engine={model.model_type}
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
                  <PromptField
                    id="custom-prompt"
                    value={prompt}
                    onChange={setPrompt}
                    disabled={busy}
                    rows={3}
                    placeholder="Leave empty for the style's studio prompt"
                    className={`${inputClass} mt-1.5`}
                    hint={STYLE_PROMPT_HINT}
                  />
                </div>
              </div>
            </fieldset>
          </Step>
        </ol>

        <GenerateRow
          label="Generate Headshots"
          busy={busy}
          outOfCredits={studio.outOfCredits}
          className="mt-10"
          reasonClassName="mt-3"
        >
          <span className="font-medium break-words text-stone-900">{modelName(model)}</span>,{' '}
          {styleName} style: 4 headshots for 1 credit.
        </GenerateRow>
      </form>

      <GenerationOutcome generation={generation} styleLabel={styleName} />
    </section>
  );
}
