import { useCallback, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AlertIcon } from '../../../components/icons';
import { Spinner } from '../../../components/PageState';
import { buttonClass, cardClass, inputClass, labelClass } from '../../../components/ui';
import { toast } from '../../../lib/toast';
import { useSession } from '../../auth/session-store';
import { NEED_CREDITS_STATE } from '../../payments/eligibility';
import { useProfile } from '../../payments/hooks';
import { LowCreditBanner } from '../../payments/LowCreditBanner';
import type { UserModel } from '../../training/training-api';
import { generateTrained, type GeneratedImage } from '../generation-api';
import { isBusy, type GenerationState } from '../generation-machine';
import { GenerationProgress } from '../GenerationProgress';
import { HeadshotGrid } from '../HeadshotGrid';
import { refreshAfterGeneration } from '../hooks';
import { useImageDownloads } from '../use-downloads';
import { useGeneration } from '../use-generation';
import { DebugPromptPanel } from './DebugPromptPanel';
import { useServerDebug } from './server-debug';
import {
  canEditCustomPrompt,
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
import { useGenerationExpectation } from '../../queue/use-durations';

/** The results' heading, focused when the images arrive. */
const RESULTS_HEADING_ID = 'results-title';
const CUSTOM_PROMPT_MAX = 1000;

/** What a generation was made from, kept for its results while the carousel moves on. */
interface Made {
  templateName: string;
  variantName: string;
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
  const { user } = useSession();
  const profile = useProfile();
  const account = profile.data ?? user;
  const credits = account?.credits_balance;
  const serverDebug = useServerDebug();
  const navigate = useNavigate();

  const [modelId, setModelId] = useState(() =>
    models.some((m) => m.id === initialModelId) ? initialModelId! : (models[0]?.id ?? ''),
  );
  const model = models.find((m) => m.id === modelId) ?? models[0] ?? null;

  const studio = useTemplateStudio({ initialGender: genderOfProfile(account?.gender), random });
  const { template, variant, customPrompt } = studio;
  const customAllowed = canEditCustomPrompt(account);
  const debug = showsDebugPanel(account, serverDebug);
  const blocker = generateBlocker(template, model?.id);

  const [bannerDismissed, setBannerDismissed] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  const carouselHeadingId = useId();
  const blockerId = useId();
  const promptHintId = useId();

  const expectation = useGenerationExpectation();
  const generation = useGeneration(
    (key) =>
      generateTrained(
        {
          modelId: model?.id ?? '',
          style: template?.category ?? 'professional',
          templateId: template?.id,
          variant,
          prompt: customPromptToSend(customPrompt, customAllowed),
          triggerWord: model?.trigger_word ?? 'person',
        },
        key,
      ),
    useCallback(
      (outcome: GenerationState) => {
        refreshAfterGeneration();
        if (outcome.phase === 'done') toast.success('Your AI headshots are ready!');
        // The server says the balance cannot pay: Generate eligibility's way to more credits.
        if (outcome.phase === 'failed' && outcome.failure.kind === 'credits') {
          void navigate('/pricing', { state: NEED_CREDITS_STATE });
        }
      },
      [navigate],
    ),
  );
  const { state } = generation;
  const busy = isBusy(state);
  const { saving, save } = useImageDownloads();

  const generate = () => {
    if (busy || blocker || !template) return;
    // Generate eligibility: no credits (or none known) goes to /pricing with reason 'credits'.
    if (credits === undefined || credits === null || credits <= 0) {
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
    const heading = document.getElementById(carouselHeadingId);
    heading?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  };

  const done = state.phase === 'done' ? state.result : null;
  // The images arrive below the studio: bring them into view, and focus there for screen readers.
  const resultsId = done?.id ?? null;
  useEffect(() => {
    if (!resultsId) return;
    const heading = document.getElementById(RESULTS_HEADING_ID);
    heading?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [resultsId]);

  const categoryLabel = CATEGORY_CHIPS.find((c) => c.id === template?.category)?.label;
  const prompt =
    template && model
      ? studioPrompt({
          template,
          variant,
          customPrompt,
          customAllowed,
          triggerWord: model.trigger_word,
        })
      : '';
  const balance = credits ?? 0;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Generate AI Headshots · Studioshot</title>
      <div className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Template studio
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            Generate AI Headshots
          </h1>
          <p className="mt-2 max-w-2xl text-stone-600">
            Pick one of our 60 studio templates and its look. Each generation uses 1 credit and
            gives you 4 headshots of you, 1024x1024.
          </p>
        </div>
        <p
          aria-live="polite"
          className="self-start rounded-full border border-stone-200 bg-white px-4 py-2 text-sm font-medium text-stone-800 shadow-sm md:self-auto"
        >
          <span className="font-semibold text-stone-950 tabular-nums">{balance}</span>{' '}
          {balance === 1 ? 'credit' : 'credits'}
        </p>
      </div>

      {!bannerDismissed && account && (
        <LowCreditBanner
          credits={credits}
          onDismiss={() => setBannerDismissed(true)}
          className="mt-6"
        />
      )}

      <div className="mt-8 flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
        <StudioFilters
          gender={studio.gender}
          category={studio.category}
          disabled={busy}
          onGender={studio.setGender}
          onCategory={studio.setCategory}
        />
        {models.length > 1 && model && (
          <div className="w-full sm:max-w-xs lg:w-80 lg:shrink-0">
            <label htmlFor="studio-model" className={labelClass}>
              Trained model
            </label>
            <select
              id="studio-model"
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
              {template?.description}
            </p>
            <p className="mt-3 truncate text-sm text-stone-700">
              <span className="font-medium text-stone-900">Best for:</span> {template?.useCase}
            </p>

            {customAllowed && (
              <div className="mt-5">
                <label htmlFor="custom-prompt" className={labelClass}>
                  Premium: Custom Prompt
                </label>
                <textarea
                  id="custom-prompt"
                  value={customPrompt}
                  onChange={(event) => studio.setCustomPrompt(event.target.value)}
                  disabled={busy}
                  rows={4}
                  maxLength={CUSTOM_PROMPT_MAX}
                  aria-describedby={promptHintId}
                  placeholder="Describe the shot, or leave empty for the template's prompt"
                  className={`${inputClass} mt-2 text-sm`}
                />
                <p id={promptHintId} className="mt-1.5 text-xs text-stone-600">
                  Used instead of the template's prompt; "person" stands for you. Choosing another
                  template clears it.
                </p>
              </div>
            )}

            <button
              type="button"
              onClick={generate}
              disabled={busy || blocker !== null}
              aria-describedby={blocker ? blockerId : undefined}
              className={`${buttonClass('primary', 'lg')} mt-6 w-full`}
            >
              {busy && <Spinner className="size-4" />}
              {busy ? 'Generating...' : 'Generate AI Headshot'}
            </button>
            {blocker ? (
              <p id={blockerId} role="alert" className="mt-3 text-sm text-red-700">
                {blocker}
              </p>
            ) : (
              <p className="mt-3 text-center text-xs text-stone-600">
                1 credit for 4 headshots, 1024x1024
              </p>
            )}
          </section>

          {debug && template && model && (
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

          {busy && (
            <GenerationProgress
              state={state}
              title="Generating your headshots"
              expectation={expectation}
            />
          )}
          {state.phase === 'failed' && state.failure.kind !== 'credits' && (
            <FailurePanel
              message={state.failure.message}
              refunded={state.failure.kind === 'failed'}
              onRetry={generate}
            />
          )}
        </aside>
      </div>

      {done && (
        <div className="mt-12">
          <HeadshotGrid
            images={done.images}
            heading="Your AI Headshots"
            headingId={RESULTS_HEADING_ID}
            description={
              <>
                {done.images.length} headshots from {made?.templateName ?? 'your template'}
                {made?.variantName ? ` (${made.variantName})` : ''}, 1024x1024
                {done.generation_time !== null && `, ready in ${done.generation_time} seconds`}.
                Best likeness first.
              </>
            }
            styleLabel={made?.templateName ?? 'Template'}
            saveLabel="Download"
            saving={saving}
            onSave={(image: GeneratedImage) => void save(image)}
          />
          <div className="mt-6 flex flex-wrap items-center gap-4">
            <button type="button" onClick={generateMore} className={buttonClass('primary')}>
              Generate More
            </button>
            <p className="text-sm text-stone-600">
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
        </div>
      )}
    </section>
  );
}

function FailurePanel({
  message,
  refunded,
  onRetry,
}: {
  message: string;
  refunded: boolean;
  onRetry: () => void;
}) {
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
            Generation failed
          </h2>
          <p className="mt-1 text-sm break-words text-red-800">{message}</p>
          {refunded && !/given back|refunded/i.test(message) && (
            <p className="mt-1 text-sm text-red-800">Your credit has been given back.</p>
          )}
        </div>
      </div>
      <button type="button" onClick={onRetry} className={`${buttonClass('primary', 'sm')} mt-4`}>
        Try Again
      </button>
    </section>
  );
}
