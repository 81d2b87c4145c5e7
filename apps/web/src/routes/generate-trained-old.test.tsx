import { ZIdempotencyKeySchema } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generationResult, imageId, MODEL_ID } from '../features/generation/testing';
import { QUICK_PROMPTS } from '../features/generation/quick-prompts';
import { userModel } from '../features/training/testing';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, stubApi } from '../test/app-harness';
import {
  expectOutOfCreditsAlert,
  expectProgressShown,
  expectFinishedBySameKey,
  GENERATE_TRAINED,
  itBlocksGenerateAtZeroCredits,
  itShowsTheTrainedModelsGate,
  pageOpener,
  outOfCredits,
  queuedUntilFinished,
  startGenerating,
  READY_MODEL,
  SECOND_MODEL,
  SECOND_READY_MODEL,
  USER_MODELS,
} from '../test/generation-pages';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

/** The same call as /generate-trained. */
const GENERATE = GENERATE_TRAINED;

const page = pageOpener('/generate-trained-old', GENERATE, [READY_MODEL], { credits_balance: 10 });

const generateButton = () => screen.findByRole('button', { name: 'Generate Headshots' });

describe('/generate-trained-old: who may generate', () => {
  it('signed out: the protection wrapper sends the visitor to /auth', async () => {
    stubApi({});
    const router = renderApp('/generate-trained-old');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe('/generate-trained-old');
  });

  itShowsTheTrainedModelsGate((handlers) => page({}, handlers), generateButton);
});

describe('/generate-trained-old: the page', () => {
  it('the earlier layout: back link, name and credits, three numbered steps', async () => {
    page({ credits_balance: 4, name: 'Ada Lovelace' });
    await generateButton();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'Generate with Your Model' }),
    ).toBeTruthy();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('4').parentElement?.textContent).toBe('4 credits');
    expect(screen.getAllByRole('link', { name: 'Buy Credits' })[0]!.getAttribute('href')).toBe(
      '/credits',
    );
    expect(screen.getByRole('heading', { name: 'Running Low on Credits' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try the premium page' }).getAttribute('href')).toBe(
      '/generate-trained',
    );

    const form = screen.getByRole('form', { name: 'Generation settings' });
    const steps = Array.from(form.querySelectorAll('ol > li > fieldset'));
    expect(steps.map((s) => s.querySelector('legend')?.textContent)).toEqual([
      'Choose your model',
      'Choose a style',
      'Describe your shot',
    ]);
    const style = within(form).getByRole('group', { name: 'Choose a style' });
    expect(within(style).getByText('LinkedIn profile')).toBeTruthy();
    expect(within(style).getByText('Company website')).toBeTruthy();
    expect(within(style).queryByText('Corporate directory')).toBeNull();
  });

  it('preselects the model from the navigation state when it is a ready one, else the first', async () => {
    const models = [
      READY_MODEL,
      SECOND_READY_MODEL,
      userModel({ id: 'f0000000-0000-4000-8000-000000000000', name: 'Half done' }),
    ];
    page(
      { credits_balance: 10 },
      { [USER_MODELS]: () => [200, { models }] },
      {
        pathname: '/generate-trained-old',
        state: { modelId: SECOND_MODEL },
      },
    );
    const group = await screen.findByRole('group', { name: 'Choose your model' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    // Only ready models can generate.
    expect(radios.map((r) => r.value)).toEqual([MODEL_ID, SECOND_MODEL]);
    expect(radios[1]!.checked).toBe(true);
    expect(within(group).getAllByText('Created November 20, 2026')).toHaveLength(2);
  });

  it('a navigation state naming no ready model picks the first', async () => {
    page(
      { credits_balance: 10 },
      {},
      {
        pathname: '/generate-trained-old',
        state: { modelId: 'not-a-model' },
      },
    );
    const group = await screen.findByRole('group', { name: 'Choose your model' });
    expect((within(group).getByRole('radio') as HTMLInputElement).checked).toBe(true);
  });

  it('a sample prompt of the chosen style fills the custom prompt', async () => {
    page();
    await generateButton();
    const sample = screen.getByLabelText('Start from a sample (optional)') as HTMLSelectElement;
    const groups = () =>
      Array.from(sample.querySelectorAll('optgroup')).map((g) => g.getAttribute('label'));
    expect(groups()).toEqual(['Corporate Office', 'Business Casual', 'Industry Specific']);
    const first = QUICK_PROMPTS.find((c) => c.id === 'business_casual')!.prompts[2]!;
    fireEvent.change(sample, { target: { value: first } });
    expect((screen.getByLabelText('Custom prompt') as HTMLTextAreaElement).value).toBe(first);
    expect(sample.value).toBe(first);

    fireEvent.click(screen.getByLabelText(/Creative \/ Modern/));
    expect(groups()).toEqual(['Creative Professional', 'Artistic Expression', 'Modern Creative']);
    // The typed prompt stays; it is not one of this style's samples, so none is selected.
    expect(sample.value).toBe('');
    expect(screen.getByText(/Your description shapes your headshots/)).toBeTruthy();
  });

  itBlocksGenerateAtZeroCredits(page, generateButton);
});

describe('/generate-trained-old: generating', () => {
  it('done at once (200): the same call as /generate-trained, four headshots', async () => {
    const models = [
      READY_MODEL,
      userModel({
        id: SECOND_MODEL,
        name: 'Ada Outdoors',
        status: 'completed',
        trigger_word: 'adaxyz',
      }),
    ];
    const { bodies, setProfile } = page(
      { credits_balance: 10 },
      {
        [USER_MODELS]: () => [200, { models }],
        [GENERATE]: () => {
          setProfile({ credits_balance: 9 });
          return [200, generationResult()];
        },
      },
    );
    const button = await generateButton();
    fireEvent.click(screen.getByLabelText(/Ada Outdoors/));
    fireEvent.click(screen.getByLabelText(/Executive \/ Leadership/));
    fireEvent.change(screen.getByLabelText('Custom prompt'), {
      target: { value: 'adaxyz in a navy suit' },
    });
    fireEvent.click(button);

    const results = await screen.findByRole('region', { name: 'Your Headshots' });
    const body = bodies()[0]!;
    expect(body).toEqual({
      model_id: SECOND_MODEL,
      style: 'executive',
      prompt: 'adaxyz in a navy suit',
      num_images: 4,
      trigger_word: 'adaxyz',
      idempotency_key: body.idempotency_key,
    });
    expect(ZIdempotencyKeySchema.safeParse(body.idempotency_key).success).toBe(true);
    const cards = within(results).getAllByRole('article');
    expect(cards).toHaveLength(4);
    expect((within(cards[0]!).getByRole('img') as HTMLImageElement).getAttribute('src')).toBe(
      `/images/generated/${imageId(0)}?token=t0`,
    );
    expect(await screen.findByText('Your headshots are ready!')).toBeTruthy();
    expect(await screen.findByText('9')).toBeTruthy();
  });

  it('a blank prompt is left out: the style’s studio prompt is used', async () => {
    const { bodies } = page(
      { credits_balance: 10 },
      { [GENERATE]: () => [200, generationResult()] },
    );
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your Headshots' });
    expect(bodies()[0]).not.toHaveProperty('prompt');
    expect(bodies()[0]).toMatchObject({ model_id: MODEL_ID, style: 'professional' });
  });

  it('still running (202): live progress over /ws, then the images by the same key', async () => {
    const queued = queuedUntilFinished(GENERATE);
    const { bodies } = page(
      { credits_balance: 10 },
      {
        ...queued.handlers,
        // A generation takes 2 s on the studio engine: no spec phrase is true.
        ...waitEstimateAnswers({ generation: { median: 2 } }),
      },
    );
    const { socket, bar } = await startGenerating(await generateButton());
    expect(await screen.findByText('Usually ready in a few seconds')).toBeTruthy();
    await expectProgressShown(socket, bar, 30, 'Rendering headshot 2 of 4');
    await expectFinishedBySameKey(socket, queued, 'Your Headshots', bodies);
  });

  it('402: out of credits with Buy Credits; 502: the reason and Try Again', async () => {
    let attempt = 0;
    page(
      { credits_balance: 10 },
      {
        [GENERATE]: (request) => {
          attempt += 1;
          return attempt === 1
            ? outOfCredits(request)
            : [502, { detail: 'The engine stopped.', code: 'generation_failed' }];
        },
      },
    );
    fireEvent.click(await generateButton());
    await expectOutOfCreditsAlert();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots' }));
    await waitFor(() => expect(screen.getByText('The engine stopped.')).toBeTruthy());
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Generation failed' })).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });
});

describe('/generate-trained-old: reachable', () => {
  it('from /generate-trained: Open the classic generation page', async () => {
    const { router } = page({ credits_balance: 10 }, {}, '/generate-trained');
    fireEvent.click(await screen.findByRole('link', { name: 'Open the classic generation page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-trained-old'));
    expect(await generateButton()).toBeTruthy();
  });
});
