import { MESSAGES, ZIdempotencyKeySchema } from '@studioshot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generationResult, imageId, STYLES } from '../features/generation/testing';
import { userModel } from '../features/training/testing';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, stubApi } from '../test/app-harness';
import {
  dropFirstCall,
  expectBlockedByNoCredits,
  expectFailureAlert,
  expectOutOfCreditsAlert,
  expectProgressShown,
  failingOnce,
  expectFinishedBySameKey,
  GENERATE_WITH_STYLE as GENERATE,
  pageOpener,
  outOfCredits,
  queuedUntilFinished,
  startGenerating,
  USER_MODELS,
} from '../test/generation-pages';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

const DEFAULT_PROMPT = 'professional headshot in business attire';

/** A user with no model yet (others are sent on to /generate-trained). */
const page = pageOpener('/generate-simple', GENERATE, [], { credits_balance: 10 });

const generateButton = () =>
  screen.findByRole('button', { name: 'Generate 4 Headshots (1 credit)' });

describe('/generate-simple: who sees the style page', () => {
  it('signed out: the protection wrapper sends the visitor to /auth and back here after', async () => {
    stubApi({});
    const router = renderApp('/generate-simple');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe('/generate-simple');
  });

  it.each([
    ['a ready model', 'completed'],
    ['a model still training', 'training'],
    ['a failed model', 'failed'],
  ] as const)('a user with %s goes to /generate-trained', async (_, status) => {
    const { router, calls } = page(
      { credits_balance: 10 },
      { [USER_MODELS]: () => [200, { models: [userModel({ status })] }] },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-trained'));
    // Replaced, not stacked: Back does not bounce the user here again.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(calls(GENERATE)).toHaveLength(0);
  });

  it('models that cannot load: an error with Retry, never the style page by mistake', async () => {
    let fail = true;
    page(
      {},
      {
        [USER_MODELS]: () =>
          fail ? [500, { detail: 'boom', code: 'internal' }] : [200, { models: [] }],
      },
    );
    await screen.findByRole('heading', { name: 'Loading your studio...' });
    // The query retries a server fault twice, 1 s and 2 s apart, before it shows the error.
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(await screen.findByText('Failed to load your models. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Generate 4 Headshots/ })).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await generateButton()).toBeTruthy();
  });
});

describe('/generate-simple: the page', () => {
  it('header with name and credits, style cards with 2 use cases, the default description', async () => {
    page({ credits_balance: 7, name: 'Ada Lovelace' });
    await generateButton();
    expect(screen.getByRole('heading', { level: 1, name: 'Generate Headshots' })).toBeTruthy();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('7').parentElement?.textContent).toBe('7 credits');
    // Plenty of credits: no Buy Credits in the header.
    expect(screen.queryByRole('link', { name: 'Buy Credits' })).toBeNull();

    const styles = screen.getByRole('group', { name: 'Style' });
    const radios = within(styles).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['professional', 'executive', 'creative']);
    expect(radios[0]!.checked).toBe(true);
    for (const style of STYLES) {
      expect(within(styles).getByText(style.name)).toBeTruthy();
      expect(within(styles).getByText(style.description)).toBeTruthy();
      expect(within(styles).getByText(style.use_cases[0]!)).toBeTruthy();
      expect(within(styles).getByText(style.use_cases[1]!)).toBeTruthy();
      expect(within(styles).queryByText(style.use_cases[2]!)).toBeNull();
    }

    const prompt = screen.getByLabelText('Describe Your Ideal Shot') as HTMLTextAreaElement;
    expect(prompt.value).toBe(DEFAULT_PROMPT);
    expect(prompt.getAttribute('aria-describedby')).toBeTruthy();
    // No model yet: the page says what the headshots are made from, and how to train one.
    expect(screen.getByRole('heading', { name: 'Made from your best photo' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Train Your Model' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('the name falls back to the e-mail’s local part', async () => {
    page({ credits_balance: 3, name: '', full_name: '', first_name: '', email: 'grace@x.org' });
    await generateButton();
    expect(screen.getByText('grace')).toBeTruthy();
    // 5 credits or fewer: Buy Credits next to the balance.
    expect(screen.getByRole('link', { name: 'Buy Credits' }).getAttribute('href')).toBe('/credits');
  });

  it('0 credits: Generate is disabled and says why (at least 1 credit is needed)', async () => {
    const { calls } = page({ credits_balance: 0 });
    const reason = expectBlockedByNoCredits(await generateButton());
    expect(within(reason).getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe(
      '/credits',
    );
    fireEvent.submit(screen.getByRole('form', { name: 'Generation settings' }));
    expect(calls(GENERATE)).toHaveLength(0);
  });
});

describe('/generate-simple: generating', () => {
  it('done at once (200): the chosen style and description sent, four real headshots shown', async () => {
    const { bodies, calls, setProfile } = page(
      { credits_balance: 10 },
      {
        [GENERATE]: () => {
          setProfile({ credits_balance: 9, total_generations: 1 });
          return [200, generationResult()];
        },
      },
    );
    const button = await generateButton();
    fireEvent.click(screen.getByLabelText(/Executive \/ Leadership/));
    fireEvent.change(screen.getByLabelText('Describe Your Ideal Shot'), {
      target: { value: 'person in a charcoal suit, city skyline' },
    });
    const profileReads = calls('GET /api/v1/users/profile').length;
    fireEvent.click(button);

    const results = await screen.findByRole('region', { name: 'Your Headshots' });
    expect(bodies()).toHaveLength(1);
    const body = bodies()[0]!;
    expect(body).toEqual({
      style: 'executive',
      prompt: 'person in a charcoal suit, city skyline',
      num_images: 4,
      idempotency_key: body.idempotency_key,
    });
    expect(ZIdempotencyKeySchema.safeParse(body.idempotency_key).success).toBe(true);

    const cards = within(results).getAllByRole('article');
    expect(cards).toHaveLength(4);
    const img = within(cards[0]!).getByRole('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`/images/generated/${imageId(0)}?token=t0`);
    expect(img.alt).toBe('Headshot 1, Executive / Leadership style');
    expect(within(cards[0]!).getByText('Best likeness')).toBeTruthy();
    expect(within(results).getByRole('button', { name: 'Download All' })).toBeTruthy();
    expect(within(cards[3]!).getByRole('button', { name: 'Download Headshot 4' })).toBeTruthy();
    expect(await screen.findByText('Your headshots are ready!')).toBeTruthy();
    // Focus moves to the results for keyboard and screen reader users.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your Headshots' })),
    );
    // The balance is read again.
    await waitFor(() =>
      expect(calls('GET /api/v1/users/profile').length).toBeGreaterThan(profileReads),
    );
    expect(await screen.findByText('9')).toBeTruthy();
  });

  it('sends the default description when left as it is, and says what it did under the results', async () => {
    const { bodies } = page(
      { credits_balance: 2 },
      {
        [GENERATE]: () => [
          200,
          generationResult({
            prompt_applied: ['business'],
            prompt_note: 'Your prompt set the look: business.',
          }),
        ],
      },
    );
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your Headshots' });
    expect(bodies()[0]).toMatchObject({ style: 'professional', prompt: DEFAULT_PROMPT });
    expect(screen.getByRole('note', { name: 'Your prompt' }).textContent).toBe(
      'Prompt applied: Your prompt set the look: business.',
    );
  });

  it('still running (202): a live bar with the worker’s message, then the images by the same key', async () => {
    const queued = queuedUntilFinished(GENERATE);
    const { bodies } = page({ credits_balance: 10 }, queued.handlers);
    const { socket, bar } = await startGenerating(await generateButton());
    // Nothing can be changed while it runs.
    expect(
      (screen.getByLabelText('Describe Your Ideal Shot') as HTMLTextAreaElement).disabled,
    ).toBe(true);

    await expectProgressShown(socket, bar, 55, 'Rendering headshot 3 of 4');
    expect(screen.getByText('55%')).toBeTruthy();

    await expectFinishedBySameKey(socket, queued, 'Your Headshots', bodies);
  });

  it('no photos to generate from (409): says so, with Upload Photos', async () => {
    page(
      { credits_balance: 10 },
      { [GENERATE]: () => [409, { detail: MESSAGES.uploadPhotosFirst, code: 'conflict' }] },
    );
    fireEvent.click(await generateButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Upload your photos first' })).toBeTruthy();
    expect(within(alert).getByText(MESSAGES.uploadPhotosFirst)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Upload Photos' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('402: the spec’s out-of-credits message with a link to /credits', async () => {
    page({ credits_balance: 10 }, { [GENERATE]: outOfCredits });
    fireEvent.click(await generateButton());
    await expectOutOfCreditsAlert();
  });

  it('failed (502): the reason, the credit back, and Try Again with a new key', async () => {
    const { bodies } = page(
      { credits_balance: 10 },
      { [GENERATE]: failingOnce('No face was found in your photo.') },
    );
    fireEvent.click(await generateButton());
    const alert = await expectFailureAlert('No face was found in your photo.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Your Headshots' })).toBeTruthy();
    expect(bodies()[1]!.idempotency_key).not.toBe(bodies()[0]!.idempotency_key);
  });

  it('no answer at all: Try Again asks with the same key, so nothing is charged twice', async () => {
    const { fetchMock, bodies } = page({ credits_balance: 10 });
    dropFirstCall(fetchMock, '/api/v1/inference/generate', () =>
      Promise.resolve(new Response(JSON.stringify(generationResult()), { status: 200 })),
    );
    fireEvent.click(await generateButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.network)).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Your Headshots' })).toBeTruthy();
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]!.idempotency_key).toBe(bodies()[0]!.idempotency_key);
  });
});

describe('/generate-simple: reachable', () => {
  it('from /generate-trained when the user has no model at all: Generate from a Style', async () => {
    const { router } = page({ credits_balance: 10 });
    await generateButton();
    await act(() => router.navigate('/generate-trained'));
    const link = await screen.findByRole('link', { name: 'Generate from a Style' });
    expect(screen.getByRole('heading', { name: 'No Trained Models Found' })).toBeTruthy();
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-simple'));
    expect(await generateButton()).toBeTruthy();
  });

  it('not offered to a user whose only model is still training (they would be sent back)', async () => {
    const { router } = page(
      { credits_balance: 10 },
      {
        'GET /api/v1/upload/user-models': () => [
          200,
          { models: [userModel({ status: 'training' })] },
        ],
      },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-trained'));
    expect(await screen.findByRole('heading', { name: 'No Trained Models Found' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Generate from a Style' })).toBeNull();
  });
});
