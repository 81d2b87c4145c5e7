import type { User } from '@studioshot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { galleryImages, type GalleryPages } from '../features/generation/gallery-cache';
import { GALLERY_PAGE_SIZE, type GeneratedImage } from '../features/generation/generation-api';
import { generatedImage } from '../features/generation/testing';
import { FREE_SUBSCRIPTION, pricingAnswer } from '../features/payments/testing';
import { queryClient } from '../lib/query-client';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { generationKeys } from '../features/generation/query-keys';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];
const listUrl = (offset: number) =>
  `GET /models/generated-images?limit=${GALLERY_PAGE_SIZE}&offset=${offset}`;

/** The user's headshots, newest first, as the server pages them. */
function library(count: number): GeneratedImage[] {
  return Array.from({ length: count }, (_, n) => generatedImage(n));
}

function pageOf(images: GeneratedImage[], offset: number) {
  return {
    images: images.slice(offset, offset + GALLERY_PAGE_SIZE),
    total: images.length,
    limit: GALLERY_PAGE_SIZE,
    offset,
  };
}

function gallery(images: GeneratedImage[], handlers: Handlers = {}) {
  signIn();
  const fetchMock = stubApi({
    [listUrl(0)]: () => [200, pageOf(images, 0)],
    [listUrl(GALLERY_PAGE_SIZE)]: () => [200, pageOf(images, GALLERY_PAGE_SIZE)],
    ...handlers,
  });
  const router = renderApp('/gallery');
  return { router, fetchMock };
}

/**
 * A headshot's name: its template, when it was made (the hour as the test machine's clock zone
 * reads 10:02 UTC) and its take in its generation; never its place in the list.
 */
const named = (prefix: string, take: number, suffix = '') =>
  new RegExp(
    `^${prefix}Corporate Navy Studio, [A-Z][a-z]{2} \\d{1,2}, 2026, \\d{1,2}:\\d{2}\\s[AP]M, take ${take}${suffix}$`,
  );

const cards = () => within(screen.getByRole('list', { name: 'Headshots' })).getAllByRole('article');

describe('/gallery', () => {
  it('signed out: goes to /auth like every protected page', async () => {
    stubApi({});
    const router = renderApp('/gallery');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('shows the thumbnails newest first, and Load more brings the next page', async () => {
    const { fetchMock } = gallery(library(26));
    expect(await screen.findByRole('heading', { name: 'My Headshots' })).toBeTruthy();
    expect(await screen.findByText('26 headshots, newest first.')).toBeTruthy();
    expect(cards()).toHaveLength(24);
    const first = within(cards()[0]!).getByRole('img') as HTMLImageElement;
    expect(first.getAttribute('src')).toBe(generatedImage(0).thumbnail_url);
    expect(first.alt).toMatch(named('', 1));
    expect(
      within(cards()[0]!)
        .getByRole('link', { name: /open full size/ })
        .getAttribute('href'),
    ).toBe(generatedImage(0).url);

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cards()).toHaveLength(26));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/models/generated-images'))
        .length,
    ).toBe(2);
  });

  it('empty: No headshots yet, with a way to generate', async () => {
    gallery([]);
    expect(await screen.findByRole('heading', { name: 'No headshots yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Generate Headshots' }).getAttribute('href')).toBe(
      '/generate-trained',
    );
  });

  it('loading, then an error with Retry that loads them', async () => {
    let fail = true;
    gallery([], {
      [listUrl(0)]: () =>
        fail ? [500, { detail: 'boom', code: 'internal' }] : [200, pageOf(library(2), 0)],
    });
    expect(await screen.findByText('Loading your headshots...')).toBeTruthy();
    // The query retries a server fault twice before it gives up.
    await act(() => vi.advanceTimersByTimeAsync(4000));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('boom')).toBeTruthy();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('favourite: shown at once, kept when the server agrees', async () => {
    let cachedWhenAsked: boolean | undefined;
    const image = generatedImage(0);
    gallery([image], {
      [`POST /models/generated-images/${image.id}/favorite`]: ({ body }) => {
        // What the page shows while the call is on its way.
        cachedWhenAsked = galleryImages(
          queryClient.getQueryData<GalleryPages>(generationKeys.images()),
        )[0]?.favorite;
        return [200, { ...image, favorite: (body as { favorite: boolean }).favorite }];
      },
    });
    const heart = await screen.findByRole('button', { name: named('Favourite ', 1) });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('true'));
    expect(cachedWhenAsked).toBe(true);
  });

  it('favourite: put back when the server says no', async () => {
    const image = generatedImage(0);
    gallery([image], {
      [`POST /models/generated-images/${image.id}/favorite`]: () => [
        500,
        { detail: 'boom', code: 'internal' },
      ],
    });
    const heart = await screen.findByRole('button', { name: named('Favourite ', 1) });
    fireEvent.click(heart);
    expect(
      await screen.findByText('Could not update the favourite. Please try again.'),
    ).toBeTruthy();
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it('delete asks first; Cancel keeps it, Delete removes it', async () => {
    const images = library(3);
    const deleted: string[] = [];
    gallery(images, {
      [`DELETE /models/generated-images/${images[1]!.id}`]: () => {
        deleted.push(images[1]!.id);
        return [200, { message: 'Image deleted', id: images[1]!.id }];
      },
    });
    await screen.findByText('3 headshots, newest first.');
    fireEvent.click(screen.getByRole('button', { name: named('Delete ', 2) }));
    let dialog = await screen.findByRole('dialog', { name: named('Delete ', 2, '\\?') });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: named('Delete ', 2) }));
    dialog = await screen.findByRole('dialog', { name: named('Delete ', 2, '\\?') });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Headshot deleted.')).toBeTruthy();
    expect(deleted).toEqual([images[1]!.id]);
    expect(cards()).toHaveLength(2);
    expect(screen.getByText('2 headshots, newest first.')).toBeTruthy();
    const shown = cards().map((card) => within(card).getByRole('img').getAttribute('src'));
    expect(shown).toEqual([images[0]!.thumbnail_url, images[2]!.thumbnail_url]);
    // The third keeps its name, now second in the list.
    expect(within(cards()[1]!).getByRole('button', { name: named('Download ', 3) })).toBeTruthy();
  });

  it('names a headshot from a prompt of the user own by that, and shows its template', async () => {
    gallery([generatedImage(0), generatedImage(1, { template_id: null })]);
    await screen.findByText('2 headshots, newest first.');
    expect(
      within(cards()[0]!).getByRole('heading', { name: 'Corporate Navy Studio' }),
    ).toBeTruthy();
    expect(within(cards()[1]!).getByRole('heading', { name: 'Own prompt' })).toBeTruthy();
    expect(cards()[1]!.getAttribute('aria-label')).toMatch(/^Own prompt, .*, take 2$/);
  });

  it('a delete that fails says so in the dialog and keeps the image', async () => {
    const images = library(1);
    gallery(images, {
      [`DELETE /models/generated-images/${images[0]!.id}`]: () => [
        404,
        { detail: 'Image not found', code: 'not_found' },
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: named('Delete ', 1) }));
    const dialog = await screen.findByRole('dialog', { name: named('Delete ', 1, '\\?') });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(within(dialog).getByText('Image not found')).toBeTruthy();
    expect(cards()).toHaveLength(1);
  });

  it('downloads one headshot', async () => {
    const image = generatedImage(0);
    const clicked: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:headshot');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      if (this.download) clicked.push(this.download);
    });
    gallery([image], { [`GET ${image.url}`]: () => [200, 'jpeg'] });
    fireEvent.click(await screen.findByRole('button', { name: named('Download ', 1) }));
    await waitFor(() => expect(clicked).toEqual([image.filename]));
    expect(await screen.findByText('Headshot saved.')).toBeTruthy();
  });
});

describe('the dashboard leads to the gallery', () => {
  it('View Gallery next to Total Generations, and My Headshots in Quick Actions', async () => {
    const user: Partial<User> = { credits_balance: 10, total_generations: 3 };
    signIn(user);
    stubApi({
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...user }],
      'GET /api/v1/payments/subscription': () => [200, FREE_SUBSCRIPTION],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'GET /api/v1/upload/user-models': () => [200, { models: [] }],
      'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
    });
    const router = renderApp('/dashboard');
    const total = (await screen.findByText('Total Generations')).parentElement!;
    expect(within(total).getByText('3')).toBeTruthy();
    expect(within(total).getByRole('link', { name: 'View Gallery' }).getAttribute('href')).toBe(
      '/gallery',
    );
    const actions = screen.getByRole('region', { name: 'Quick Actions' });
    fireEvent.click(within(actions).getByRole('link', { name: 'My Headshots' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/gallery'));
  });
});
