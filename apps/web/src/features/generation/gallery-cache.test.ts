import { describe, expect, it } from 'vitest';
import {
  galleryImages,
  galleryTotal,
  nextGalleryOffset,
  withImage,
  withoutImage,
  type GalleryPages,
} from './gallery-cache';
import type { GeneratedImagesResponse } from './generation-api';
import { generatedImage } from './testing';

function page(from: number, count: number, total: number): GeneratedImagesResponse {
  return {
    images: Array.from({ length: count }, (_, i) => generatedImage(from + i)),
    total,
    limit: 2,
    offset: from,
  };
}

const pages = (...list: GeneratedImagesResponse[]): GalleryPages => ({
  pages: list,
  pageParams: list.map((p) => p.offset),
});

describe('gallery pages', () => {
  it('the next page starts after what is loaded; none once everything is', () => {
    const first = page(0, 2, 5);
    expect(nextGalleryOffset(first, [first])).toBe(2);
    const second = page(2, 2, 5);
    expect(nextGalleryOffset(second, [first, second])).toBe(4);
    const last = page(4, 1, 5);
    expect(nextGalleryOffset(last, [first, second, last])).toBeUndefined();
    expect(nextGalleryOffset(page(6, 0, 9), [first, page(6, 0, 9)])).toBeUndefined();
  });

  it('after a delete the next offset accounts for the shorter list', () => {
    const data = withoutImage(pages(page(0, 2, 5), page(2, 2, 5)), generatedImage(1).id)!;
    expect(galleryImages(data)).toHaveLength(3);
    expect(galleryTotal(data)).toBe(4);
    expect(nextGalleryOffset(data.pages[1]!, data.pages)).toBe(3);
  });

  it('shows each image once even when pages overlap (a new generation shifted them)', () => {
    const data = pages(page(0, 2, 5), page(1, 2, 5));
    expect(galleryImages(data).map((i) => i.position)).toEqual([0, 1, 2]);
  });

  it('changes one image in place; deleting an unknown id changes nothing', () => {
    const data = pages(page(0, 2, 2));
    const id = generatedImage(1).id;
    const changed = withImage(data, id, (image) => ({ ...image, favorite: true }))!;
    expect(galleryImages(changed).map((i) => i.favorite)).toEqual([false, true]);
    expect(withoutImage(data, 'nope')).toBe(data);
  });
});
