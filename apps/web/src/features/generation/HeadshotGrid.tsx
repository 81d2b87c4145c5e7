import { useState, type ReactNode } from 'react';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { imageSrc, type GeneratedImage } from './generation-api';
import { DownloadIcon, ImageOffIcon } from '../../components/icons';

/** "Best likeness", then the rank; and the likeness to the user's photos when it was measured. */
export function rankLabel(image: Pick<GeneratedImage, 'position'>): string {
  return image.position === 0 ? 'Best likeness' : `Rank ${image.position + 1}`;
}

export function likenessLabel(image: Pick<GeneratedImage, 'identity_score'>): string | null {
  if (image.identity_score === null) return null;
  return `${Math.round(Math.min(1, Math.max(0, image.identity_score)) * 100)}% likeness`;
}

function HeadshotCard({
  image,
  number,
  styleLabel,
  saving,
  disabled,
  showRank,
  onSave,
}: {
  image: GeneratedImage;
  number: number;
  styleLabel: string;
  saving: boolean;
  disabled: boolean;
  showRank: boolean;
  onSave: () => void;
}) {
  const [broken, setBroken] = useState(false);
  const title = `Headshot ${number}`;
  const address = imageSrc(image.url);
  const likeness = likenessLabel(image);
  return (
    <li className={`${cardClass} flex flex-col overflow-hidden`}>
      <article aria-label={title} className="flex flex-1 flex-col">
        {broken ? (
          // The image would not load (an expired link, a network fault): say which one it was.
          <div
            role="img"
            aria-label={`${title} could not be loaded`}
            className="flex aspect-square flex-col items-center justify-center gap-2 bg-stone-100 px-4 text-center"
          >
            <ImageOffIcon className="size-8 text-stone-400" />
            <p className="font-display text-lg font-semibold text-stone-800">{title}</p>
            <p className="text-sm text-stone-600">{styleLabel}</p>
            <p className="max-w-full text-xs break-all text-stone-700">{address}</p>
          </div>
        ) : (
          <img
            src={address}
            alt={`${title}, ${styleLabel} style`}
            width={image.width}
            height={image.height}
            loading="lazy"
            onError={() => setBroken(true)}
            className="aspect-square w-full bg-stone-100 object-cover"
          />
        )}
        <div className="flex flex-1 flex-col gap-3 p-4">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 className="font-display text-lg font-semibold text-stone-950">{title}</h3>
            {showRank && image.position === 0 && (
              <span className="rounded-full bg-accent-100 px-2.5 py-0.5 text-xs font-semibold text-accent-800">
                {rankLabel(image)}
              </span>
            )}
          </div>
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-stone-600">
            <span>{styleLabel}</span>
            {showRank && image.position > 0 && <span>{rankLabel(image)}</span>}
            {showRank && likeness && <span>{likeness}</span>}
          </p>
          <button
            type="button"
            onClick={onSave}
            disabled={disabled}
            aria-label={`Download ${title}`}
            className={`${buttonClass('secondary', 'sm')} mt-auto w-full`}
          >
            {saving ? <Spinner className="size-4" /> : <DownloadIcon />}
            Download
          </button>
        </div>
      </article>
    </li>
  );
}

/**
 * A generation's headshots: each with its number, style, rank and likeness and its own
 * Download, plus Download All (the one wording of every page). Images that fail to load become a card naming the image and its address.
 */
export function HeadshotGrid({
  images,
  heading,
  headingId,
  description,
  styleLabel,
  saving,
  showRank = true,
  onSave,
  onSaveAll,
}: {
  images: readonly GeneratedImage[];
  heading: string;
  headingId: string;
  description?: ReactNode;
  styleLabel: string;
  /** The id being saved, 'all' during Download All, or null. */
  saving: string | null;
  showRank?: boolean;
  onSave: (image: GeneratedImage) => void;
  /** Without it the grid has no Download All of its own (the page offers one elsewhere). */
  onSaveAll?: () => void;
}) {
  return (
    <section aria-labelledby={headingId}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h2
            id={headingId}
            tabIndex={-1}
            className="font-display text-2xl font-semibold text-stone-950 focus:outline-none"
          >
            {heading}
          </h2>
          {description && <div className="mt-1 text-sm text-stone-600">{description}</div>}
        </div>
        {onSaveAll && (
          <button
            type="button"
            onClick={onSaveAll}
            disabled={saving !== null}
            className={buttonClass('primary')}
          >
            {saving === 'all' ? <Spinner className="size-4" /> : <DownloadIcon />}
            Download All
          </button>
        )}
      </div>
      <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {images.map((image, index) => (
          <HeadshotCard
            key={image.id}
            image={image}
            number={index + 1}
            styleLabel={styleLabel}
            saving={saving === image.id}
            disabled={saving !== null}
            showRank={showRank}
            onSave={() => onSave(image)}
          />
        ))}
      </ul>
    </section>
  );
}
