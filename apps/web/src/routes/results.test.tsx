import { MESSAGES } from '@studioshot/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fourImages,
  GENERATION_ID,
  generationResult,
  imageId,
  STYLES,
} from '../features/generation/testing';
import { queueTask } from '../lib/realtime-testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];
const CALL = 'POST /inference/generate';
const PAID = { ...generationResult(), cost: 29, generation_time: 14.2, credits_used: 0 };

interface ResultsBody {
  prompt: string;
  num_images: number;
  width: number;
  height: number;
  style: string;
  payment_intent: string;
  idempotency_key: string;
}

function results(handlers: Handlers, search = '?payment_intent=pi_test_1') {
  signIn();
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, TEST_USER],
    'GET /api/v1/generation/styles': () => [200, { styles: STYLES }],
    ...handlers,
  });
  const router = renderApp(`/results/${TEST_USER.id}${search}`);
  const bodies = () =>
    fetchMock.mock.calls
      .filter(([url, init]) => `${init?.method} ${String(url)}` === CALL)
      .map(([, init]) => JSON.parse(String(init?.body)) as ResultsBody);
  return { router, fetchMock, bodies };
}

/** Lets the spec's 2-second wait run out. */
async function passTheWait() {
  await act(() => vi.advanceTimersByTimeAsync(2000));
}

const ready = () =>
  screen.findByRole('heading', { name: 'Your Professional Headshots Are Ready!' });

describe('/results/{sessionId}', () => {
  it('waits 2 seconds with a visible countdown before it begins', async () => {
    const { bodies } = results({
      [CALL]: () => [200, PAID],
      ...waitEstimateAnswers({ generation: { median: 12 } }),
    });
    expect(await screen.findByRole('heading', { name: 'Preparing your headshots' })).toBeTruthy();
    expect(screen.getByText(/Starting your generation in 2 seconds/)).toBeTruthy();
    expect(await screen.findByText(/usually takes 10-30 seconds/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText(/Starting your generation in 1 second\.\.\./)).toBeTruthy();
    expect(bodies()).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(bodies()).toHaveLength(1));
  });

  it('a set that came back short says how many were left out, and costs nothing', async () => {
    const short = { ...PAID, images: fourImages().slice(0, 3), images_dropped: 1, cost: 0 };
    results({ [CALL]: () => [200, short] });
    await passTheWait();
    await ready();
    expect(
      screen.getByText(
        '1 of 4 headshots did not pass our quality check and was left out, so this set is free: your payment for it is refunded.',
      ),
    ).toBeTruthy();
    const stats = screen.getAllByRole('definition').map((d) => d.textContent);
    expect(stats).toContain('$0.00');
  });

  it('says when the prompt shaped nothing, and why', async () => {
    results({
      [CALL]: () => [
        200,
        { ...PAID, prompt_applied: false, prompt_note: MESSAGES.promptNoStudioWords },
      ],
    });
    await passTheWait();
    await ready();
    expect(screen.getByRole('note', { name: 'Your prompt' }).textContent).toBe(
      `Prompt not applied: ${MESSAGES.promptNoStudioWords}`,
    );
  });

  it('generates for the payment with the defaults, and shows the headshots', async () => {
    const { bodies } = results({ [CALL]: () => [200, PAID] });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    await ready();
    expect(bodies()).toEqual([
      {
        prompt: 'professional person',
        num_images: 4,
        width: 1024,
        height: 1024,
        style: 'professional',
        payment_intent: 'pi_test_1',
        idempotency_key: 'payment:pi_test_1',
      },
    ]);

    const stats = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
    expect(stats('Images')).toBe('4');
    expect(stats('Generation time')).toBe('14.2 seconds');
    expect(stats('Cost')).toBe('$29.00');
    expect(screen.getByRole('button', { name: /Download All Images/ })).toBeTruthy();
    const more = screen.getAllByRole('link', { name: 'Generate More' });
    expect(more[0]!.getAttribute('href')).toBe('/generate');

    const gallery = screen.getByRole('region', { name: 'Your Headshots' });
    const cards = within(gallery).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Headshot 1',
      'Headshot 2',
      'Headshot 3',
      'Headshot 4',
    ]);
    expect(within(cards[2]!).getByRole('heading', { name: 'Headshot 3' })).toBeTruthy();
    expect(within(cards[2]!).getByText('Professional / Corporate')).toBeTruthy();
    expect(within(cards[2]!).getByRole('button', { name: 'Download Headshot 3' })).toBeTruthy();

    const uses = screen.getByRole('region', { name: 'How to Use Your Headshots' });
    expect(
      within(uses)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Professional Use', 'Social Media', 'Applications']);
    expect(screen.getByRole('link', { name: 'Generate more headshots' }).getAttribute('href')).toBe(
      '/generate',
    );
  });

  it('sends the style and prompt from the address', async () => {
    const { bodies } = results(
      { [CALL]: () => [200, PAID] },
      '?payment_intent=pi_test_1&style=creative&prompt=person%20in%20a%20denim%20jacket',
    );
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    await ready();
    expect(bodies()[0]).toMatchObject({ style: 'creative', prompt: 'person in a denim jacket' });
    expect(screen.getAllByText('Creative / Modern').length).toBeGreaterThan(0);
  });

  it('still running: live progress (polled while /ws is down), then the images by the same payment', async () => {
    let progress = 30;
    let done = false;
    const { bodies } = results({
      [CALL]: () =>
        done ? [200, PAID] : [202, generationResult({ status: 'running', progress: 10 })],
      [`GET /api/v1/queue/status/${GENERATION_ID}`]: () => [
        200,
        queueTask({
          id: GENERATION_ID,
          status: done ? 'completed' : 'running',
          progress,
          message: done ? 'Done' : 'Rendering headshot 2 of 4',
        }),
      ],
      ...waitEstimateAnswers({ generation: { median: 40 } }),
    });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
    expect(await screen.findByText('This usually takes about 40 seconds')).toBeTruthy();
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('30'));
    expect(screen.getAllByText('Rendering headshot 2 of 4').length).toBeGreaterThan(0);

    progress = 100;
    done = true;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await ready();
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toEqual(bodies()[0]);
  });

  it('a reload shows the same images: the same payment and key, the same generation', async () => {
    // The server binds one generation to the payment: every call with it answers that one.
    const { bodies } = results({ [CALL]: () => [200, PAID] });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    await ready();
    const shown = () =>
      within(screen.getByRole('region', { name: 'Your Headshots' }))
        .getAllByRole('img')
        .map((img) => img.getAttribute('src'));
    const first = shown();
    expect(first).toEqual(fourImages().map((image) => image.url));

    cleanup();
    renderApp(`/results/${TEST_USER.id}?payment_intent=pi_test_1`);
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    await ready();
    expect(shown()).toEqual(first);
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]!.idempotency_key).toBe(bodies()[0]!.idempotency_key);
    expect(bodies()[1]!.payment_intent).toBe('pi_test_1');
  });

  it('an image that fails to load becomes a card with its number, style and address', async () => {
    results({ [CALL]: () => [200, PAID] });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    await ready();
    const card = screen.getByRole('article', { name: 'Headshot 2' });
    fireEvent.error(within(card).getByRole('img'));
    const placeholder = within(card).getByRole('img', { name: 'Headshot 2 could not be loaded' });
    expect(within(placeholder).getByText('Headshot 2')).toBeTruthy();
    expect(within(placeholder).getByText('Professional / Corporate')).toBeTruthy();
    expect(within(placeholder).getByText(`/images/generated/${imageId(1)}?token=t1`)).toBeTruthy();
  });

  it('a failed generation: Generation Failed with the reason, and Try Again to /generate', async () => {
    const reason = `The engine could not find a face. ${MESSAGES.generationOrderRefunded}`;
    results({ [CALL]: () => [502, { detail: reason, code: 'generation_failed' }] });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Generation Failed' })).toBeTruthy();
    expect(within(alert).getByText(reason)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe(
      '/generate',
    );
  });

  it('no answer: Check Again asks once more with the same payment', async () => {
    let attempt = 0;
    const { fetchMock, bodies } = results({});
    const stubbed = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) => {
      if (String(input) !== '/inference/generate') return stubbed(input, init);
      attempt += 1;
      if (attempt === 1) return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(new Response(JSON.stringify(PAID), { status: 200 }));
    });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.network)).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Check Again' }));
    await ready();
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toEqual(bodies()[0]);
  });

  it('a payment that is not there: No Results Found with the error and a way to /generate', async () => {
    results({ [CALL]: () => [404, { detail: MESSAGES.paymentNotFound, code: 'not_found' }] });
    await screen.findByRole('heading', { name: 'Preparing your headshots' });
    await passTheWait();
    expect(await screen.findByRole('heading', { name: 'No Results Found' })).toBeTruthy();
    expect(screen.getByText(MESSAGES.paymentNotFound)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Generate Headshots' }).getAttribute('href')).toBe(
      '/generate',
    );
  });

  it('no payment in the address: No Results Found, and nothing is generated', async () => {
    const { bodies } = results({ [CALL]: () => [200, PAID] }, '');
    expect(await screen.findByRole('heading', { name: 'No Results Found' })).toBeTruthy();
    await passTheWait();
    expect(bodies()).toHaveLength(0);
  });
});
