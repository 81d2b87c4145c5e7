import type { User } from '@studioshot/contracts';
import { MESSAGES, ZIdempotencyKeySchema } from '@studioshot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GENERATION_ID,
  generationResult,
  imageId,
  MODEL_ID,
  STYLES,
} from '../features/generation/testing';
import { QUICK_PROMPTS } from '../features/generation/quick-prompts';
import { userModel } from '../features/training/testing';
import { queueTask } from '../lib/realtime-testing';
import { STORAGE_KEYS } from '../lib/storage';
import { FakeWebSocket } from '../test/fake-websocket';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];
/** The same call as /generate-trained. */
const GENERATE = 'POST /api/v1/generation/generate-trained';
const SECOND_MODEL = '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e';
const READY_MODEL = userModel({ id: MODEL_ID, name: 'Ada Portraits', status: 'completed' });

interface GenerateBody {
  model_id: string;
  style: string;
  prompt?: string;
  num_images: number;
  trigger_word: string;
  idempotency_key: string;
}

function page(
  user: Partial<User> = { credits_balance: 10 },
  handlers: Handlers = {},
  entry: Parameters<typeof renderApp>[0] = '/generate-trained-old',
) {
  signIn(user);
  let profile = { ...TEST_USER, ...user };
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, profile],
    'GET /api/v1/upload/user-models': () => [200, { models: [READY_MODEL] }],
    'GET /api/v1/generation/styles': () => [200, { styles: STYLES }],
    ...handlers,
  });
  const router = renderApp(entry);
  const calls = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}` === key);
  const bodies = () =>
    calls(GENERATE).map(([, init]) => JSON.parse(String(init?.body)) as GenerateBody);
  const setProfile = (next: Partial<User>) => {
    profile = { ...profile, ...next };
  };
  return { router, fetchMock, calls, bodies, setProfile };
}

const generateButton = () => screen.findByRole('button', { name: 'Generate Headshots' });

describe('/generate-trained-old: who may generate', () => {
  it('signed out: the protection wrapper sends the visitor to /auth', async () => {
    stubApi({});
    const router = renderApp('/generate-trained-old');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe('/generate-trained-old');
  });

  it('no completed model: No Trained Models Found, with Train Your Model to /upload', async () => {
    page(
      {},
      {
        'GET /api/v1/upload/user-models': () => [
          200,
          { models: [userModel({ status: 'training' })] },
        ],
      },
    );
    expect(await screen.findByRole('heading', { name: 'No Trained Models Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Train Your Model' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('models that cannot load: an error with Retry', async () => {
    let fail = true;
    page(
      {},
      {
        'GET /api/v1/upload/user-models': () =>
          fail ? [500, { detail: 'boom', code: 'internal' }] : [200, { models: [READY_MODEL] }],
      },
    );
    await screen.findByRole('heading', { name: 'Loading your trained models...' });
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(await screen.findByText('Failed to load your models. Please try again.')).toBeTruthy();
    expect(screen.queryByText('No Trained Models Found')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await generateButton()).toBeTruthy();
  });
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
      userModel({ id: SECOND_MODEL, name: 'Ada Outdoors', status: 'completed' }),
      userModel({ id: 'f0000000-0000-4000-8000-000000000000', name: 'Half done' }),
    ];
    page(
      { credits_balance: 10 },
      { 'GET /api/v1/upload/user-models': () => [200, { models }] },
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
    expect(
      screen.getByText(/Descriptions are used as written on the Premium annual plan/),
    ).toBeTruthy();
  });

  it('0 credits: Generate is disabled and says why; Out of Credits!', async () => {
    page({ credits_balance: 0 });
    const button = (await generateButton()) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/You have 0 credits/);
    expect(screen.getByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
  });
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
        'GET /api/v1/upload/user-models': () => [200, { models }],
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
    let finished = false;
    const { bodies } = page(
      { credits_balance: 10 },
      {
        [GENERATE]: () =>
          finished
            ? [200, generationResult()]
            : [202, generationResult({ status: 'queued', progress: 0 })],
        [`GET /api/v1/queue/status/${GENERATION_ID}`]: () => [
          200,
          queueTask({ id: GENERATION_ID, status: 'queued', progress: 0, message: null }),
        ],
        // A generation takes 2 s on the studio engine: no spec phrase is true.
        ...waitEstimateAnswers({ generation: { median: 2 } }),
      },
    );
    const button = await generateButton();
    const socket = FakeWebSocket.latest();
    act(() => socket.serverAccept());
    fireEvent.click(button);
    const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
    expect(await screen.findByText('Usually ready in a few seconds')).toBeTruthy();
    act(() =>
      socket.serverSend({
        type: 'task',
        task: queueTask({ id: GENERATION_ID, progress: 30, message: 'Rendering headshot 2 of 4' }),
      }),
    );
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('30'));
    expect(screen.getAllByText('Rendering headshot 2 of 4').length).toBeGreaterThan(0);
    finished = true;
    act(() =>
      socket.serverSend({
        type: 'task',
        task: queueTask({ id: GENERATION_ID, status: 'completed', progress: 100 }),
      }),
    );
    expect(await screen.findByRole('region', { name: 'Your Headshots' })).toBeTruthy();
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]!.idempotency_key).toBe(bodies()[0]!.idempotency_key);
  });

  it('402: out of credits with Buy Credits; 502: the reason and Try Again', async () => {
    let attempt = 0;
    page(
      { credits_balance: 10 },
      {
        [GENERATE]: () => {
          attempt += 1;
          return attempt === 1
            ? [402, { detail: MESSAGES.insufficientCredits, code: 'insufficient_credits' }]
            : [502, { detail: 'The engine stopped.', code: 'generation_failed' }];
        },
      },
    );
    fireEvent.click(await generateButton());
    let alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.insufficientCredits)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Buy Credits' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots' }));
    await waitFor(() => expect(screen.getByText('The engine stopped.')).toBeTruthy());
    alert = screen.getByRole('alert');
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
