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
import { FREE_SUBSCRIPTION, pricingAnswer } from '../features/payments/testing';
import { userModel } from '../features/training/testing';
import { queueTask } from '../lib/realtime-testing';
import { FakeWebSocket } from '../test/fake-websocket';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];
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

function studio(
  user: Partial<User> = { credits_balance: 10 },
  handlers: Handlers = {},
  entry: Parameters<typeof renderApp>[0] = '/generate-trained',
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

const generateButton = () => screen.findByRole('button', { name: 'Generate Premium Headshots' });

describe('/generate-trained: who may generate', () => {
  it('signed out: asks to log in, with Go to Login', async () => {
    stubApi({});
    renderApp('/generate-trained');
    expect(
      await screen.findByRole('heading', { name: 'Please log in to generate headshots' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/auth');
  });

  it('no completed model: No Trained Models Found, with Train Your Model to /upload', async () => {
    studio(
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

  it('models that cannot load: an error with Retry, never "no models"', async () => {
    let fail = true;
    studio(
      {},
      {
        'GET /api/v1/upload/user-models': () =>
          fail ? [500, { detail: 'boom', code: 'internal' }] : [200, { models: [READY_MODEL] }],
      },
    );
    await screen.findByRole('heading', { name: 'Loading your trained models...' });
    // The query retries a server fault twice, 1 s and 2 s apart, before it shows the error.
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(await screen.findByText('Failed to load your models. Please try again.')).toBeTruthy();
    expect(screen.queryByText('No Trained Models Found')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await generateButton()).toBeTruthy();
  });
});

describe('/generate-trained: the page', () => {
  it("is where the dashboard's Generate Premium Headshots leads, with the ready model", async () => {
    const { router } = studio(
      { credits_balance: 10, plan_type: 'professional', training_limit: 5, models_trained: 1 },
      {
        'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
        'GET /api/v1/payments/subscription': () => [200, FREE_SUBSCRIPTION],
        'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      },
      '/dashboard',
    );
    const quick = await screen.findByRole('region', { name: 'Quick Actions' });
    fireEvent.click(
      await within(quick).findByRole('button', { name: 'Generate Premium Headshots' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-trained'));
    expect(router.state.location.state).toEqual({ modelId: MODEL_ID });
    expect(((await screen.findByLabelText('Trained model')) as HTMLSelectElement).value).toBe(
      MODEL_ID,
    );
  });

  it('shows the back link, credits, Buy Credits and the low-credit banner at 5 credits or fewer', async () => {
    // Recent generations took 3 minutes: the spec's '2-5 minutes' is true.
    studio({ credits_balance: 3 }, waitEstimateAnswers({ generation: { median: 180 } }));
    await generateButton();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(screen.getByText('3').parentElement?.textContent).toBe('3 credits');
    const buy = screen.getAllByRole('link', { name: 'Buy Credits' });
    expect(buy[0]!.getAttribute('href')).toBe('/credits');
    expect(screen.getByRole('heading', { name: 'Running Low on Credits' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('heading', { name: 'Running Low on Credits' })).toBeNull();
    // The spec's copy.
    expect(screen.getAllByText(/1024x1024/).length).toBeGreaterThan(0);
    await waitFor(() =>
      expect(screen.getByText('Ready in').nextElementSibling?.textContent).toBe('2-5 minutes'),
    );
    expect(screen.getByText(/Each generation uses 1 credit/)).toBeTruthy();
  });

  it('promises no duration while the queue’s estimate is unknown', async () => {
    studio({ credits_balance: 12 });
    await generateButton();
    expect(screen.getByText('Ready in').nextElementSibling?.textContent).toBe('—');
  });

  it('plenty of credits: no Buy Credits button and no banner', async () => {
    studio({ credits_balance: 12 });
    await generateButton();
    expect(screen.queryByRole('link', { name: 'Buy Credits' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Credit balance' })).toBeNull();
  });

  it('preselects the model from the navigation state when it is a ready one, else the first', async () => {
    const models = [
      READY_MODEL,
      userModel({ id: SECOND_MODEL, name: 'Ada Outdoors', status: 'completed' }),
    ];
    const handlers: Handlers = {
      'GET /api/v1/upload/user-models': () => [200, { models }],
    };
    studio({ credits_balance: 10 }, handlers, {
      pathname: '/generate-trained',
      state: { modelId: SECOND_MODEL },
    });
    const picker = (await screen.findByLabelText('Trained model')) as HTMLSelectElement;
    expect(picker.value).toBe(SECOND_MODEL);
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Ada Portraits', 'Ada Outdoors']);
  });

  it('a navigation state naming no ready model picks the first', async () => {
    studio(
      { credits_balance: 10 },
      {},
      {
        pathname: '/generate-trained',
        state: { modelId: 'not-a-model' },
      },
    );
    const picker = (await screen.findByLabelText('Trained model')) as HTMLSelectElement;
    expect(picker.value).toBe(MODEL_ID);
  });

  it('style cards come from the styles call; quick prompts follow the style and fill the prompt', async () => {
    studio();
    await generateButton();
    const styles = screen.getByRole('group', { name: 'Style' });
    const radios = within(styles).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['professional', 'executive', 'creative']);
    expect(radios[0]!.checked).toBe(true);
    expect(within(styles).getByText('Professional / Corporate')).toBeTruthy();
    expect(within(styles).getByText('LinkedIn profile')).toBeTruthy();
    // Two use cases per card.
    expect(within(styles).queryByText('Corporate directory')).toBeNull();

    const categories = () =>
      within(screen.getByRole('group', { name: 'Prompt categories' }))
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(categories()).toEqual(['Corporate Office', 'Business Casual', 'Industry Specific']);
    fireEvent.click(screen.getByRole('button', { name: 'Business Casual' }));
    const samples = within(screen.getByRole('list', { name: 'Business Casual prompts' }));
    const sampleButtons = samples.getAllByRole('button');
    expect(sampleButtons).toHaveLength(4);

    const prompt = screen.getByLabelText('Custom prompt') as HTMLTextAreaElement;
    fireEvent.click(sampleButtons[1]!);
    expect(prompt.value).toBe(sampleButtons[1]!.textContent);
    expect(sampleButtons[1]!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(prompt.value).toBe('');

    fireEvent.click(within(styles).getByLabelText(/Executive \/ Leadership/));
    expect(categories()).toEqual(['Executive Suite', 'Leadership Style', 'Industry Authority']);
    fireEvent.click(within(styles).getByLabelText(/Creative \/ Modern/));
    expect(categories()).toEqual([
      'Creative Professional',
      'Artistic Expression',
      'Modern Creative',
    ]);
  });

  it('says a custom prompt needs the Premium annual plan, unless the account has it', async () => {
    studio({ credits_balance: 10 });
    await generateButton();
    expect(screen.getByText(/Custom prompts are used on the Premium annual plan/)).toBeTruthy();
  });

  it('0 credits: Generate is disabled and says why; Out of Credits!', async () => {
    studio({ credits_balance: 0 });
    const button = (await generateButton()) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/You have 0 credits/);
    expect(screen.getByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
  });
});

describe('/generate-trained: generating', () => {
  /** Image downloads land here: an <a download> on an object URL. */
  function captureDownloads() {
    const clicked: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:headshot');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    return clicked;
  }

  it('done at once (200): four ranked headshots, Save and Save All, credits refreshed', async () => {
    const imageHandlers: Handlers = Object.fromEntries(
      [0, 1, 2, 3].map((n) => [
        `GET /images/generated/${imageId(n)}?token=t${n}`,
        () => [200, 'jpeg'],
      ]),
    );
    const { bodies, calls, setProfile } = studio(
      { credits_balance: 10 },
      {
        [GENERATE]: () => {
          setProfile({ credits_balance: 9, total_generations: 1 });
          return [200, generationResult()];
        },
        ...imageHandlers,
      },
    );
    fireEvent.change(await screen.findByLabelText('Custom prompt'), {
      target: { value: 'person in a navy suit' },
    });
    const profileReads = calls('GET /api/v1/users/profile').length;
    fireEvent.click(await generateButton());

    const results = await screen.findByRole('region', { name: 'Your Premium Headshots' });
    expect(bodies()).toHaveLength(1);
    const body = bodies()[0]!;
    expect(body).toMatchObject({
      model_id: MODEL_ID,
      style: 'professional',
      prompt: 'person in a navy suit',
      num_images: 4,
      trigger_word: 'person',
    });
    expect(ZIdempotencyKeySchema.safeParse(body.idempotency_key).success).toBe(true);

    const cards = within(results).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Headshot 1',
      'Headshot 2',
      'Headshot 3',
      'Headshot 4',
    ]);
    expect(within(cards[0]!).getByText('Best likeness')).toBeTruthy();
    expect(within(cards[0]!).getByText('90% likeness')).toBeTruthy();
    expect(within(cards[1]!).getByText('Rank 2')).toBeTruthy();
    const img = within(cards[0]!).getByRole('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`/images/generated/${imageId(0)}?token=t0`);
    expect(img.alt).toBe('Headshot 1, Professional / Corporate style');
    expect(within(results).getByText(/ready in 14.2 seconds/)).toBeTruthy();
    expect(await screen.findByText('Your premium headshots are ready!')).toBeTruthy();

    // The credits pill and widgets read the profile again.
    await waitFor(() =>
      expect(calls('GET /api/v1/users/profile').length).toBeGreaterThan(profileReads),
    );
    expect(await screen.findByText('9')).toBeTruthy();

    const clicked = captureDownloads();
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Save Headshot 2' }));
    await waitFor(() => expect(clicked).toEqual(['headshot-7d1e2f3a-2.jpg']));
    expect(await screen.findByText('Headshot saved.')).toBeTruthy();

    clicked.length = 0;
    fireEvent.click(within(results).getByRole('button', { name: 'Save All' }));
    await waitFor(() => expect(clicked).toHaveLength(4), { timeout: 5000 });
    expect(await screen.findByText('4 headshots saved.')).toBeTruthy();
  });

  it('still running (202): a live bar with the worker’s message, then the images by the same key', async () => {
    let finished = false;
    const { bodies } = studio(
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
        // 8 s of queue and an 8 s median: the spec's '10-30 seconds' is true.
        ...waitEstimateAnswers({ generation: { median: 8, wait: 8, ahead: 1 } }),
      },
    );
    const button = await generateButton();
    const socket = FakeWebSocket.latest();
    act(() => socket.serverAccept());
    fireEvent.click(button);

    const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    const busy = screen.getByRole('button', { name: 'Generating...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(await screen.findByText('Usually ready in 10-30 seconds')).toBeTruthy();

    act(() =>
      socket.serverSend({
        type: 'task',
        task: queueTask({ id: GENERATION_ID, progress: 45, message: 'Rendering headshot 2 of 4' }),
      }),
    );
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('45'));
    expect(screen.getAllByText('Rendering headshot 2 of 4').length).toBeGreaterThan(0);

    finished = true;
    act(() =>
      socket.serverSend({
        type: 'task',
        task: queueTask({ id: GENERATION_ID, status: 'completed', progress: 100 }),
      }),
    );
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]!.idempotency_key).toBe(bodies()[0]!.idempotency_key);
    expect(screen.queryByRole('progressbar', { name: 'Generation progress' })).toBeNull();
  });

  it('while the call is still waiting, the progress /ws pushes for the new task shows', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { fetchMock } = studio({ credits_balance: 10 });
    const stubbed = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) =>
      String(input) === '/api/v1/generation/generate-trained'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : stubbed(input, init),
    );
    const button = await generateButton();
    const socket = FakeWebSocket.latest();
    act(() => socket.serverAccept());
    fireEvent.click(button);
    const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
    expect(screen.getByText('Sending your request...')).toBeTruthy();

    act(() =>
      socket.serverSend({
        type: 'task',
        task: queueTask({
          id: GENERATION_ID,
          created_at: new Date().toISOString(),
          progress: 60,
          message: 'Rendering headshot 3 of 4',
        }),
      }),
    );
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('60'));
    expect(screen.getAllByText('Rendering headshot 3 of 4').length).toBeGreaterThan(0);

    answer(new Response(JSON.stringify(generationResult()), { status: 200 }));
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
  });

  it('402: the spec’s out-of-credits message with a link to /credits', async () => {
    studio(
      { credits_balance: 10 },
      {
        [GENERATE]: () => [
          402,
          { detail: MESSAGES.insufficientCredits, code: 'insufficient_credits' },
        ],
      },
    );
    fireEvent.click(await generateButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.insufficientCredits)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Buy Credits' }).getAttribute('href')).toBe(
      '/credits',
    );
  });

  it('failed (502): the reason, the credit back, and Try Again with a new key', async () => {
    let attempt = 0;
    const { bodies, calls } = studio(
      { credits_balance: 10 },
      {
        [GENERATE]: () => {
          attempt += 1;
          return attempt === 1
            ? [502, { detail: 'No face was found in your model.', code: 'generation_failed' }]
            : [200, generationResult()];
        },
      },
    );
    const button = await generateButton();
    const reads = calls('GET /api/v1/users/profile').length;
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Generation failed' })).toBeTruthy();
    expect(within(alert).getByText('No face was found in your model.')).toBeTruthy();
    expect(within(alert).getByText('Your credit has been given back.')).toBeTruthy();
    // The balance is read again: the reserved credit came back.
    await waitFor(() => expect(calls('GET /api/v1/users/profile').length).toBeGreaterThan(reads));

    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
    expect(bodies()[1]!.idempotency_key).not.toBe(bodies()[0]!.idempotency_key);
  });

  it('no answer at all: Try Again asks with the same key, so nothing is charged twice', async () => {
    let attempt = 0;
    const { fetchMock } = studio({ credits_balance: 10 });
    const stubbed = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) => {
      if (String(input) !== '/api/v1/generation/generate-trained') return stubbed(input, init);
      attempt += 1;
      if (attempt === 1) return Promise.reject(new TypeError('Failed to fetch'));
      return stubbed(input, init);
    });
    fireEvent.click(await generateButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.network)).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(attempt).toBe(2));
    const sent = fetchMock.mock.calls
      .filter(([url]) => String(url) === '/api/v1/generation/generate-trained')
      .map(([, init]) => (JSON.parse(String(init?.body)) as GenerateBody).idempotency_key);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
  });
});
