import { MESSAGES, ZIdempotencyKeySchema } from '@studioshot/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generationResult, imageId, MODEL_ID, STYLES } from '../features/generation/testing';
import { FREE_SUBSCRIPTION, pricingAnswer } from '../features/payments/testing';
import { renderApp, stubApi } from '../test/app-harness';
import {
  acceptedSocket,
  captureDownloads,
  dropFirstCall,
  expectFailureAlert,
  expectModelPicker,
  expectOutOfCreditsAlert,
  expectProgressShown,
  failingOnce,
  expectFinishedBySameKey,
  GENERATE_TRAINED as GENERATE,
  holdCall,
  itBlocksGenerateAtZeroCredits,
  itShowsTheTrainedModelsGate,
  pageOpener,
  outOfCredits,
  pushTask,
  queuedUntilFinished,
  startGenerating,
  READY_MODEL,
  SECOND_MODEL,
  SECOND_READY_MODEL,
  USER_MODELS,
  type Handlers,
} from '../test/generation-pages';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

const studio = pageOpener('/generate-trained', GENERATE, [READY_MODEL], { credits_balance: 10 });

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

  itShowsTheTrainedModelsGate((handlers) => studio({}, handlers), generateButton);
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

  it('links to the template page by its name', async () => {
    studio({ credits_balance: 12 });
    await generateButton();
    expect(screen.getByRole('link', { name: 'Generate AI Headshots' }).getAttribute('href')).toBe(
      '/generate',
    );
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
    const models = [READY_MODEL, SECOND_READY_MODEL];
    const handlers: Handlers = {
      [USER_MODELS]: () => [200, { models }],
    };
    studio({ credits_balance: 10 }, handlers, {
      pathname: '/generate-trained',
      state: { modelId: SECOND_MODEL },
    });
    await expectModelPicker(SECOND_MODEL);
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

  it('says the prompt shapes the headshots on every plan, and that the results name its words', async () => {
    studio({ credits_balance: 10 });
    await generateButton();
    expect(screen.getByText(/Your description shapes your headshots/)).toBeTruthy();
    expect(screen.queryByText(/Premium annual plan/)).toBeNull();
  });

  itBlocksGenerateAtZeroCredits(studio, generateButton);
});

describe('/generate-trained: generating', () => {
  it('done at once (200): four ranked headshots, Download and Download All, credits refreshed', async () => {
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
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Download Headshot 2' }));
    await waitFor(() => expect(clicked).toEqual(['headshot-7d1e2f3a-2.jpg']));
    expect(await screen.findByText('Headshot saved.')).toBeTruthy();

    clicked.length = 0;
    fireEvent.click(within(results).getByRole('button', { name: 'Download All' }));
    await waitFor(() => expect(clicked).toHaveLength(4), { timeout: 5000 });
    expect(await screen.findByText('4 headshots saved.')).toBeTruthy();
  });

  it('still running (202): a live bar with the worker’s message, then the images by the same key', async () => {
    const queued = queuedUntilFinished(GENERATE);
    const { bodies } = studio(
      { credits_balance: 10 },
      {
        ...queued.handlers,
        // 8 s of queue and an 8 s median: the spec's '10-30 seconds' is true.
        ...waitEstimateAnswers({ generation: { median: 8, wait: 8, ahead: 1 } }),
      },
    );
    const { socket, bar } = await startGenerating(await generateButton());
    expect(await screen.findByText('Usually ready in 10-30 seconds')).toBeTruthy();
    await expectProgressShown(socket, bar, 45, 'Rendering headshot 2 of 4');
    await expectFinishedBySameKey(socket, queued, 'Your Premium Headshots', bodies);
  });

  it('while the call is still waiting, the progress /ws pushes for the new task shows', async () => {
    const { fetchMock } = studio({ credits_balance: 10 });
    const call = holdCall(fetchMock, '/api/v1/generation/generate-trained');
    const button = await generateButton();
    const socket = acceptedSocket();
    fireEvent.click(button);
    const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
    expect(screen.getByText('Sending your request...')).toBeTruthy();

    pushTask(socket, {
      created_at: new Date().toISOString(),
      progress: 60,
      message: 'Rendering headshot 3 of 4',
    });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('60'));
    expect(screen.getAllByText('Rendering headshot 3 of 4').length).toBeGreaterThan(0);

    call.answer(new Response(JSON.stringify(generationResult()), { status: 200 }));
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
  });

  it('402: the spec’s out-of-credits message with a link to /credits', async () => {
    studio({ credits_balance: 10 }, { [GENERATE]: outOfCredits });
    fireEvent.click(await generateButton());
    await expectOutOfCreditsAlert();
  });

  it('failed (502): the reason, the credit back, and Try Again with a new key', async () => {
    const { bodies, calls } = studio(
      { credits_balance: 10 },
      { [GENERATE]: failingOnce('No face was found in your model.') },
    );
    const button = await generateButton();
    const reads = calls('GET /api/v1/users/profile').length;
    fireEvent.click(button);
    const alert = await expectFailureAlert('No face was found in your model.');
    // The balance is read again: the reserved credit came back.
    await waitFor(() => expect(calls('GET /api/v1/users/profile').length).toBeGreaterThan(reads));

    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
    expect(bodies()[1]!.idempotency_key).not.toBe(bodies()[0]!.idempotency_key);
  });

  it('no answer at all: Try Again asks with the same key, so nothing is charged twice', async () => {
    const { fetchMock, bodies } = studio({ credits_balance: 10 });
    const calls = dropFirstCall(fetchMock, '/api/v1/generation/generate-trained');
    fireEvent.click(await generateButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.network)).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(calls.attempts()).toBe(2));
    const sent = bodies().map((body) => body.idempotency_key);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
  });

  it('a reload while generating comes back to the same generation, asked with the same key', async () => {
    const queued = queuedUntilFinished(GENERATE);
    const { bodies } = studio({ credits_balance: 10 }, queued.handlers);
    await startGenerating(await generateButton());
    await waitFor(() => expect(bodies()).toHaveLength(1));
    const key = bodies()[0]!.idempotency_key;

    // The page goes away (a reload) and opens again.
    cleanup();
    const again = studio({ credits_balance: 10 }, queued.handlers);
    expect(await screen.findByRole('progressbar', { name: 'Generation progress' })).toBeTruthy();
    await waitFor(() => expect(again.bodies()).toHaveLength(1));
    expect(again.bodies()[0]!.idempotency_key).toBe(key);

    const socket = acceptedSocket();
    queued.finish();
    pushTask(socket, { status: 'completed', progress: 100 });
    expect(await screen.findByRole('region', { name: 'Your Premium Headshots' })).toBeTruthy();
    // Once it is over, the next visit starts from the empty page.
    cleanup();
    const later = studio({ credits_balance: 10 }, queued.handlers);
    await generateButton();
    expect(later.bodies()).toHaveLength(0);
  });
});

describe('/generate-trained: the style cards speak for the model’s engine', () => {
  const card = async (name: string) => {
    await generateButton();
    return screen.getByText(name, { selector: 'span' }).closest('label') as HTMLElement;
  };

  it('a studio model: the studio text, never the attire', async () => {
    studio();
    const professional = await card(STYLES[0]!.name);
    expect(within(professional).getByText(STYLES[0]!.description)).toBeTruthy();
    expect(within(professional).queryByText(STYLES[0]!.flux_description)).toBeNull();
  });

  it('a flux model: the flux text', async () => {
    const fluxModel = { ...READY_MODEL, model_type: 'flux' };
    pageOpener('/generate-trained', GENERATE, [fluxModel], { credits_balance: 10 })();
    const professional = await card(STYLES[0]!.name);
    expect(within(professional).getByText(STYLES[0]!.flux_description)).toBeTruthy();
  });
});
