import { customPromptApplies } from '@studioshot/contracts/custom-prompt';
import { templateDescription } from '@studioshot/templates';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { buttonClass, cardClass, inputClass, labelClass } from '../../../components/ui';
import { NEED_CREDITS_STATE } from '../../payments/eligibility';
import type { UserModel } from '../../training/training-api';
import { DOCKED_PAGE_PADDING, GenerateButton, GenerateDock } from '../GenerateButton';
import { generateTrained } from '../generation-api';
import { GenerationHeader } from '../GenerationHeader';
import { GalleryNote, GenerationResults } from '../GenerationResults';
import { GenerationStatus } from '../GenerationStatus';
import { useGenerationAccount } from '../hooks';
import { useModelChoice } from '../model-choice';
import { ModelSelect } from '../ModelSelect';
import { PromptField } from '../PromptField';
import { usePageGeneration } from '../use-page-generation';
import { revealHeading } from '../use-reveal';
import { DebugPromptPanel } from './DebugPromptPanel';
import { useServerDebug } from './server-debug';
import {
  CATEGORY_CHIPS,
  customPromptToSend,
  generateBlocker,
  genderOfProfile,
  showsDebugPanel,
  studioPrompt,
} from './studio-logic';
import { StudioFilters } from './StudioFilters';
import { TemplateCarousel } from './TemplateCarousel';
import { useStudioKeys } from './use-studio-keys';
import { useTemplateStudio } from './use-template-studio';
import { VariantPicker } from './VariantPicker';

/** What a generation was made from, kept for its results while the carousel moves on. */
interface Made {
  templateName: string;
  variantName: string;
}

/** How the results name what they were made from: 'Template (Variant)'. */
function madeFrom(made: Made | null): string {
  if (!made) return 'your template';
  return made.variantName ? `${made.templateName} (${made.variantName})` : made.templateName;
}

/**
 * The /generate template studio (product spec: Template generation page): the model picker,
 * Male/Female and category filters, the 3D carousel with its variants, the premium custom
 * prompt, the debug panel, Generate AI Headshot with live progress, and the results.
 */
export function TemplateStudio({
  models,
  initialModelId,
  random,
}: {
  /** The completed models, at least one. */
  models: readonly UserModel[];
  initialModelId: string | null;
  /** Math.random unless a test says otherwise (the random variant). */
  random?: () => number;
}) {
  const { account, credits } = useGenerationAccount();
  const serverDebug = useServerDebug();
  const navigate = useNavigate();

  const choice = useModelChoice(models, initialModelId);
  const { model } = choice;

  const studio = useTemplateStudio({ initialGender: genderOfProfile(account?.gender), random });
  const { template, variant, customPrompt } = studio;
  const customAllowed = customPromptApplies(account);
  const debug = showsDebugPanel(account, serverDebug);
  const blocker = generateBlocker(template, model.id);

  const [made, setMade] = useState<Made | null>(null);
  const carouselHeadingId = useId();
  const blockerId = useId();

  const generation = usePageGeneration(
    (key) =>
      generateTrained(
        {
          modelId: model.id,
          style: template?.category ?? 'professional',
          templateId: template?.id,
          variant,
          prompt: customPromptToSend(customPrompt, customAllowed),
          triggerWord: model.trigger_word,
        },
        key,
      ),
    {
      readyMessage: 'Your AI headshots are ready!',
      onSettled: (outcome) => {
        // The server says the balance cannot pay: Generate eligibility's way to more credits.
        if (outcome.phase === 'failed' && outcome.failure.kind === 'credits') {
          void navigate('/pricing', { state: NEED_CREDITS_STATE });
        }
      },
    },
  );
  const { state, busy, done } = generation;
  const creditsRefused = state.phase === 'failed' && state.failure.kind === 'credits';

  const generate = () => {
    if (busy || blocker || !template) return;
    // Generate eligibility: no credits (or none known) goes to /pricing with reason 'credits'.
    if (credits <= 0) {
      void navigate('/pricing', { state: NEED_CREDITS_STATE });
      return;
    }
    setMade({
      templateName: template.name,
      variantName: template.variants[variant]?.name ?? '',
    });
    generation.start();
  };

  useStudioKeys({
    onPrevious: () => studio.move(-1),
    onNext: () => studio.move(1),
    onGenerate: generate,
  });

  const generateMore = () => {
    generation.reset();
    setMade(null);
    revealHeading(carouselHeadingId);
  };

  const categoryLabel = CATEGORY_CHIPS.find((c) => c.id === template?.category)?.label;
  const prompt = template
    ? studioPrompt({
        template,
        variant,
        customPrompt,
        customAllowed,
        triggerWord: model.trigger_word,
      })
    : '';

  return (
    <section className={`mx-auto max-w-6xl px-4 pt-10 sm:px-6 sm:pt-14 ${DOCKED_PAGE_PADDING}`}>
      <title>Generate AI Headshots · Studioshot</title>
      {/* Low credits are the banner's to offer (Generate eligibility sends 0 to /pricing). */}
      <GenerationHeader
        eyebrow="Template studio"
        title="Generate AI Headshots"
        account={account}
        offerCredits={false}
        lowCreditBanner
        sibling={{
          to: '/generate-trained',
          title: 'Premium Headshots',
          offers: 'A style and a prompt of your own instead',
        }}
      >
        Pick one of our 60 studio templates and its look. Each generation uses 1 credit and gives
        you 4 headshots of you, 1024x1024.
      </GenerationHeader>

      <div className="mt-8 flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
        <StudioFilters
          gender={studio.gender}
          category={studio.category}
          disabled={busy}
          onGender={studio.setGender}
          onCategory={studio.setCategory}
        />
        {models.length > 1 && (
          <ModelSelect
            choice={choice}
            disabled={busy}
            className="w-full sm:max-w-xs lg:w-80 lg:shrink-0"
          />
        )}
      </div>

      <div className="mt-8 grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          <h2
            id={carouselHeadingId}
            tabIndex={-1}
            className="mb-4 font-display text-xl font-semibold text-stone-950"
          >
            Choose your template
          </h2>
          <TemplateCarousel
            templates={studio.templates}
            index={studio.index}
            variant={variant}
            headingId={carouselHeadingId}
            engine={model.model_type}
            onMove={studio.move}
            onGoTo={studio.goTo}
          />
          {template && (
            <VariantPicker template={template} variant={variant} onChoose={studio.chooseVariant} />
          )}
          <p className="mt-2 text-center text-xs text-stone-600">
            <span className="sm:hidden">Swipe the picture to browse the templates.</span>
            <span className="hidden sm:inline">
              Tip: the arrow keys browse the templates and Enter generates; on a touch screen,
              swipe.
            </span>
          </p>
        </div>

        <aside className="space-y-6 lg:sticky lg:top-24">
          <section aria-labelledby="template-title" className={`${cardClass} p-6`}>
            <p className="text-xs font-semibold tracking-[0.14em] text-accent-700 uppercase">
              {categoryLabel ?? 'Template'}
            </p>
            <h2
              id="template-title"
              className="mt-1 line-clamp-2 min-h-[3.5rem] font-display text-xl font-semibold text-stone-950"
            >
              {template?.name ?? 'No template selected'}
            </h2>
            <p className="mt-1 line-clamp-4 min-h-[5rem] text-sm text-stone-600">
              {template && templateDescription(template, model.model_type)}
            </p>
            <p className="mt-3 truncate text-sm text-stone-700">
              <span className="font-medium text-stone-900">Best for:</span> {template?.useCase}
            </p>

            {customAllowed && (
              <div className="mt-5">
                <label htmlFor="custom-prompt" className={labelClass}>
                  Premium: Custom Prompt
                </label>
                <PromptField
                  id="custom-prompt"
                  value={customPrompt}
                  onChange={studio.setCustomPrompt}
                  disabled={busy}
                  rows={4}
                  placeholder="Describe the shot, or leave empty for the template's prompt"
                  className={`${inputClass} mt-2 text-sm`}
                  hint={
                    <>
                      Used instead of the template's prompt; "person" stands for you. Choosing
                      another template clears it.
                    </>
                  }
                  hintClassName="mt-1.5"
                />
              </div>
            )}

            <GenerateDock>
              <GenerateButton
                label="Generate AI Headshot"
                busy={busy}
                blockedBy={blocker ? blockerId : null}
                type="button"
                onClick={generate}
                className="w-full lg:mt-6"
              />
              {blocker ? (
                <p id={blockerId} role="alert" className="mt-2 text-sm text-red-700 lg:mt-3">
                  {blocker}
                </p>
              ) : (
                <p className="mt-2 text-center text-xs text-stone-600 lg:mt-3">
                  1 credit for 4 headshots, 1024x1024
                </p>
              )}
            </GenerateDock>
          </section>

          {debug && template && (
            <DebugPromptPanel
              template={template}
              variant={variant}
              modelId={model.id}
              triggerWord={model.trigger_word}
              prompt={prompt}
              customUsed={customAllowed && customPrompt.trim() !== ''}
              reason={account?.is_debug ? 'account' : 'server'}
            />
          )}

          {/* A refused balance goes to /pricing instead (Generate eligibility). */}
          {!creditsRefused && <GenerationStatus state={state} onRetry={generate} />}
        </aside>
      </div>

      {done && (
        <GenerationResults
          result={done}
          heading="Your AI Headshots"
          styleLabel={made?.templateName ?? 'Template'}
          source={madeFrom(made)}
          saveAll={false}
          className="mt-12"
        >
          <div className="mt-6 flex flex-wrap items-center gap-4">
            <button type="button" onClick={generateMore} className={buttonClass('primary')}>
              Generate More
            </button>
            <GalleryNote />
          </div>
        </GenerationResults>
      )}
    </section>
  );
}
