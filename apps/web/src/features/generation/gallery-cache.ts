import type { InfiniteData } from '@tanstack/react-query';
import type { GeneratedImage, GeneratedImagesResponse } from './generation-api';

/** The gallery's pages as the infinite query keeps them. */
export type GalleryPages = InfiniteData<GeneratedImagesResponse, unknown>;

/**
 * The next page starts after everything loaded so far. Counting what is loaded (rather than
 * adding the page size) keeps the offsets right after a delete shrank the list on the server.
 */
export function nextGalleryOffset(
  last: GeneratedImagesResponse,
  pages: readonly GeneratedImagesResponse[],
): number | undefined {
  if (last.images.length === 0) return undefined;
  const loaded = pages.reduce((sum, page) => sum + page.images.length, 0);
  return loaded < last.total ? loaded : undefined;
}

/** Every image once, newest first as the server sent them (a new generation can shift pages). */
export function galleryImages(data: GalleryPages | undefined): GeneratedImage[] {
  const seen = new Set<string>();
  const images: GeneratedImage[] = [];
  for (const page of data?.pages ?? []) {
    for (const image of page.images) {
      if (seen.has(image.id)) continue;
      seen.add(image.id);
      images.push(image);
    }
  }
  return images;
}

export function galleryTotal(data: GalleryPages | undefined): number {
  return data?.pages.at(-1)?.total ?? 0;
}

/** One image changed (a favourite set, or rolled back). */
export function withImage(
  data: GalleryPages | undefined,
  id: string,
  change: (image: GeneratedImage) => GeneratedImage,
): GalleryPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      images: page.images.map((image) => (image.id === id ? change(image) : image)),
    })),
  };
}

/** One image gone: out of its page, and one fewer in every page's total. */
export function withoutImage(data: GalleryPages | undefined, id: string): GalleryPages | undefined {
  if (!data) return data;
  const present = data.pages.some((page) => page.images.some((image) => image.id === id));
  if (!present) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      images: page.images.filter((image) => image.id !== id),
      total: Math.max(0, page.total - 1),
    })),
  };
}
