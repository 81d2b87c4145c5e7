import { templateById } from '@studioshot/templates';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { AlertIcon, PhotoIcon, TrashIcon } from '../components/icons';
import { Modal } from '../components/Modal';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import {
  galleryImages,
  galleryTotal,
  nextGalleryOffset,
  withImage,
  withoutImage,
  type GalleryPages,
} from '../features/generation/gallery-cache';
import {
  deleteGeneratedImage,
  fetchGeneratedImages,
  GALLERY_PAGE_SIZE,
  imageSrc,
  setFavorite,
  type GeneratedImage,
} from '../features/generation/generation-api';
import { likenessLabel } from '../features/generation/HeadshotGrid';
import { ArrowLeftIcon, DownloadIcon, HeartIcon, ImageOffIcon } from '../components/icons';
import { useImageDownloads } from '../features/generation/use-downloads';
import { errorMessage } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { toast } from '../lib/toast';
import { generationKeys } from '../features/generation/query-keys';

const LOAD_FAILED = 'Failed to load your headshots. Please try again.';
const FAVOURITE_FAILED = 'Could not update the favourite. Please try again.';
const DELETE_FAILED = 'Could not delete the headshot. Please try again.';
const DANGER_BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-full bg-red-700 px-5 py-2.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-red-800 active:bg-red-900 disabled:cursor-not-allowed disabled:opacity-60';

function takenOn(image: GeneratedImage): string {
  const date = new Date(image.created_at);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/**
 * A headshot's name, the same wherever the list scrolls or shrinks: its template, when it was
 * made and its take in that generation (the images of one generation share the first two).
 */
function headshotName(image: GeneratedImage): string {
  return [templateName(image), takenOn(image), `take ${image.position + 1}`]
    .filter(Boolean)
    .join(', ');
}

/** The template a headshot was made from; a generation from a prompt of the user's own has none. */
function templateName(image: GeneratedImage): string {
  return (image.template_id && templateById(image.template_id)?.name) || 'Own prompt';
}

const setPages = (change: (data: GalleryPages | undefined) => GalleryPages | undefined) =>
  queryClient.setQueryData<GalleryPages>(generationKeys.images(), change);

function GalleryCard({
  image,
  saving,
  onFavourite,
  onSave,
  onDelete,
}: {
  image: GeneratedImage;
  saving: boolean;
  onFavourite: () => void;
  onSave: () => void;
  onDelete: () => void;
}) {
  const [broken, setBroken] = useState(false);
  const name = headshotName(image);
  const likeness = likenessLabel(image);
  return (
    <li className={`${cardClass} flex flex-col overflow-hidden`}>
      <article aria-label={name} className="flex flex-1 flex-col">
        <div className="relative">
          {broken ? (
            <div
              role="img"
              aria-label={`${name} could not be loaded`}
              className="flex aspect-square flex-col items-center justify-center gap-2 bg-stone-100 text-sm text-stone-600"
            >
              <ImageOffIcon className="size-8 text-stone-400" />
              {name}
            </div>
          ) : (
            <a
              href={imageSrc(image.url)}
              target="_blank"
              rel="noopener noreferrer"
              className="block focus-visible:outline-offset-[-2px]"
            >
              <img
                src={imageSrc(image.thumbnail_url)}
                alt={name}
                loading="lazy"
                onError={() => setBroken(true)}
                className="aspect-square w-full bg-stone-100 object-cover"
              />
              <span className="sr-only"> (open full size in a new tab)</span>
            </a>
          )}
          <button
            type="button"
            onClick={onFavourite}
            aria-pressed={image.favorite}
            aria-label={`Favourite ${name}`}
            className={`absolute top-2 right-2 rounded-full p-2 shadow-sm ring-1 transition-colors ${
              image.favorite
                ? 'bg-accent-600 text-white ring-accent-700 hover:bg-accent-700'
                : 'bg-white/90 text-stone-700 ring-stone-200 hover:bg-white hover:text-accent-700'
            }`}
          >
            <HeartIcon className="size-5" filled={image.favorite} />
          </button>
        </div>
        <div className="flex flex-1 flex-col gap-3 p-4">
          <div className="min-w-0">
            <h2 className="font-medium text-stone-950">{templateName(image)}</h2>
            <p className="mt-0.5 text-xs text-stone-600">
              {[takenOn(image), `take ${image.position + 1}`, likeness].filter(Boolean).join(' · ')}
            </p>
          </div>
          <div className="mt-auto flex gap-2">
            <button
              type="button"
              onClick={onSave}
              disabled={saving}
              aria-label={`Download ${name}`}
              className={`${buttonClass('secondary', 'sm')} flex-1`}
            >
              {saving ? <Spinner className="size-4" /> : <DownloadIcon />}
              {/* Two cards side by side on a phone leave room for the icons only. */}
              <span className="max-sm:sr-only">Download</span>
            </button>
            <button
              type="button"
              onClick={onDelete}
              aria-label={`Delete ${name}`}
              className="inline-flex items-center justify-center rounded-full px-3 py-2 text-red-700 transition-colors hover:bg-red-50 hover:text-red-800"
            >
              <TrashIcon />
            </button>
          </div>
        </div>
      </article>
    </li>
  );
}

export function Component() {
  const gallery = useInfiniteQuery({
    queryKey: generationKeys.images(),
    queryFn: ({ pageParam, signal }) =>
      fetchGeneratedImages({ limit: GALLERY_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: nextGalleryOffset,
  });
  const images = galleryImages(gallery.data);
  const total = galleryTotal(gallery.data);
  const { saving, save } = useImageDownloads();
  const [confirming, setConfirming] = useState<GeneratedImage | null>(null);

  // Shown at once; put back as it was if the server says no.
  const favourite = useMutation({
    mutationFn: (change: { id: string; favorite: boolean }) =>
      setFavorite(change.id, change.favorite),
    onMutate: async ({ id, favorite }) => {
      await queryClient.cancelQueries({ queryKey: generationKeys.images() });
      setPages((data) => withImage(data, id, (image) => ({ ...image, favorite })));
    },
    onError: (_error, { id, favorite }) => {
      setPages((data) => withImage(data, id, (image) => ({ ...image, favorite: !favorite })));
      toast.error(FAVOURITE_FAILED);
    },
    onSuccess: (saved) => setPages((data) => withImage(data, saved.id, () => saved)),
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteGeneratedImage(id),
    onSuccess: (_answer, id) => {
      setPages((data) => withoutImage(data, id));
      setConfirming(null);
      toast.success('Headshot deleted.');
    },
  });

  const closeConfirm = () => {
    if (remove.isPending) return;
    setConfirming(null);
    remove.reset();
  };

  let body;
  if (gallery.isPending) {
    body = (
      <p role="status" className="mt-10 flex items-center gap-2 text-stone-600">
        <Spinner className="size-5 text-accent-600" /> Loading your headshots...
      </p>
    );
  } else if (gallery.isError && !gallery.data) {
    body = (
      <div
        role="alert"
        className="mt-10 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
      >
        <span>{errorMessage(gallery.error, LOAD_FAILED)}</span>
        <button
          type="button"
          onClick={() => void gallery.refetch()}
          className="font-medium underline underline-offset-4"
        >
          Retry
        </button>
      </div>
    );
  } else if (images.length === 0) {
    body = (
      <div className={`${cardClass} mt-10 flex flex-col items-center px-6 py-16 text-center`}>
        <PhotoIcon className="size-10 text-accent-600" />
        <h2 className="mt-4 font-display text-2xl font-semibold text-stone-950">
          No headshots yet
        </h2>
        <p className="mt-2 max-w-md text-stone-600">
          Every headshot you generate is kept here, ready to download again.
        </p>
        <Link to="/generate-trained" className={`${buttonClass('primary')} mt-6`}>
          Generate Headshots
        </Link>
      </div>
    );
  } else {
    body = (
      <>
        <ul
          aria-label="Headshots"
          className="mt-8 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4"
        >
          {images.map((image) => (
            <GalleryCard
              key={image.id}
              image={image}
              saving={saving === image.id}
              onFavourite={() => favourite.mutate({ id: image.id, favorite: !image.favorite })}
              onSave={() => void save(image)}
              onDelete={() => {
                remove.reset();
                setConfirming(image);
              }}
            />
          ))}
        </ul>
        {gallery.isFetchNextPageError && (
          <p role="alert" className="mt-6 text-center text-sm text-red-700">
            {LOAD_FAILED}
          </p>
        )}
        {gallery.hasNextPage && (
          <div className="mt-8 flex justify-center">
            <button
              type="button"
              onClick={() => void gallery.fetchNextPage()}
              disabled={gallery.isFetchingNextPage}
              className={buttonClass('secondary')}
            >
              {gallery.isFetchingNextPage && <Spinner className="size-4" />}
              {gallery.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </button>
          </div>
        )}
      </>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>My Headshots · Studioshot</title>
      <Link to="/dashboard" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> Back to Dashboard
      </Link>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Gallery
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            My Headshots
          </h1>
          {total > 0 && (
            <p className="mt-2 text-stone-600" aria-live="polite">
              {total} {total === 1 ? 'headshot' : 'headshots'}, newest first.
            </p>
          )}
        </div>
        <Link to="/generate-trained" className={buttonClass('primary')}>
          Generate More
        </Link>
      </div>

      {body}

      <Modal
        open={confirming !== null}
        onClose={closeConfirm}
        eyebrow="Delete headshot"
        title={confirming ? `Delete ${headshotName(confirming)}?` : 'Delete headshot?'}
      >
        {confirming && (
          <>
            <p className="text-stone-700">
              This removes the image for good. Download it first if you may want it later.
            </p>
            {remove.isError && (
              <p role="alert" className="mt-4 flex items-start gap-2 text-sm text-red-700">
                <AlertIcon className="mt-0.5 size-4 shrink-0" />
                {errorMessage(remove.error, DELETE_FAILED)}
              </p>
            )}
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <button
                type="button"
                onClick={closeConfirm}
                disabled={remove.isPending}
                className={buttonClass('secondary')}
                data-autofocus
              >
                Cancel
              </button>
              <button
                type="button"
                onClick={() => remove.mutate(confirming.id)}
                disabled={remove.isPending}
                className={DANGER_BUTTON}
              >
                {remove.isPending && <Spinner className="size-4" />}
                {remove.isPending ? 'Deleting...' : 'Delete'}
              </button>
            </div>
          </>
        )}
      </Modal>
    </section>
  );
}
