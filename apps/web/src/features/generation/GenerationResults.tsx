import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { GeneratedImage, GenerationResult } from './generation-api';
import { HeadshotGrid } from './HeadshotGrid';
import { useImageDownloads } from './use-downloads';

/** The results' heading, revealed (scrolled to and focused) when the images arrive. */
export const RESULTS_HEADING_ID = 'results-title';

/**
 * A finished generation's headshots on a generation page, best likeness first, each with its own
 * Download (and Download All unless `saveAll` is false); `children` go under them.
 */
export function GenerationResults({
  result,
  heading,
  styleLabel,
  source,
  saveAll = true,
  className,
  children,
}: {
  result: GenerationResult;
  heading: string;
  styleLabel: string;
  /** What the set was made from, when the page names it ('4 headshots from ...'). */
  source?: string;
  saveAll?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const downloads = useImageDownloads();
  return (
    <div className={className}>
      <HeadshotGrid
        images={result.images}
        heading={heading}
        headingId={RESULTS_HEADING_ID}
        description={
          <>
            {result.images.length} headshots{source && ` from ${source}`}, 1024x1024
            {result.generation_time !== null && `, ready in ${result.generation_time} seconds`}.
            Best likeness first.
          </>
        }
        styleLabel={styleLabel}
        saving={downloads.saving}
        onSave={(image: GeneratedImage) => void downloads.save(image)}
        onSaveAll={saveAll ? () => void downloads.saveAll(result.images) : undefined}
      />
      <IncompleteSetNote result={result} className="mt-4" />
      <PromptNote result={result} className="mt-3" />
      {children}
    </div>
  );
}

/** Where every generated headshot is kept. */
export function GalleryNote({ className = '' }: { className?: string }) {
  return (
    <p className={`${className} text-sm text-stone-600`}>
      Every headshot is kept in{' '}
      <Link to="/gallery" className="font-medium text-accent-700 underline underline-offset-4">
        My Headshots
      </Link>
      .
    </p>
  );
}

/**
 * What became of the prompt, from the answer: the words that shaped the set, or why it shaped
 * nothing (none sent, the template's own, a plan without custom prompts, no word the engine
 * renders).
 */
export function PromptNote({
  result,
  className = '',
}: {
  result: Pick<GenerationResult, 'prompt_applied' | 'prompt_note'>;
  className?: string;
}) {
  return (
    <p role="note" aria-label="Your prompt" className={`${className} text-sm text-stone-600`}>
      <span className="font-medium text-stone-800">
        {result.prompt_applied ? 'Prompt applied: ' : 'Prompt not applied: '}
      </span>
      {result.prompt_note}
    </p>
  );
}

/**
 * A set that came back short (images dropped by the quality check) says so, and that it costs
 * nothing; nothing for a complete set.
 */
export function IncompleteSetNote({
  result,
  className = '',
}: {
  result: Pick<GenerationResult, 'images' | 'images_dropped' | 'credits_refunded'>;
  className?: string;
}) {
  if (result.images_dropped <= 0) return null;
  const asked = result.images.length + result.images_dropped;
  const dropped = result.images_dropped;
  return (
    <p
      role="note"
      className={`${className} rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900`}
    >
      {dropped} of {asked} headshots did not pass our quality check and{' '}
      {dropped === 1 ? 'was' : 'were'} left out, so this set is free:{' '}
      {result.credits_refunded > 0
        ? `${result.credits_refunded === 1 ? 'its credit is' : `its ${result.credits_refunded} credits are`} back in your balance.`
        : 'your payment for it is refunded.'}
    </p>
  );
}
