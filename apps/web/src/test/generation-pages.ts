// The generation pages' tests (/generate, /generate-trained, /generate-trained-old,
// /generate-simple) share these: a signed-in user on a page with the API stubbed, the Generate
// call's usual answers, the /ws pushes of a running generation, and the alerts every page shows.
import type { QueueTask, User } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { GENERATION_ID, generationResult, MODEL_ID, STYLES } from '../features/generation/testing';
import type { UserModel } from '../features/training/training-api';
import { userModel } from '../features/training/testing';
import { queueTask } from '../lib/realtime-testing';
import { renderApp, signIn, stubApi, TEST_USER } from './app-harness';
import { FakeWebSocket } from './fake-websocket';

export type Handlers = Parameters<typeof stubApi>[0];
type Handler = Handlers[string];
export type Entry = Parameters<typeof renderApp>[0];
type FetchMock = ReturnType<typeof stubApi>;

/** The Generate call of /generate, /generate-trained and /generate-trained-old. */
export const GENERATE_TRAINED = 'POST /api/v1/generation/generate-trained';
/** The Generate call of the style page, /generate-simple. */
export const GENERATE_WITH_STYLE = 'POST /api/v1/inference/generate';
export const USER_MODELS = 'GET /api/v1/upload/user-models';
export const SECOND_MODEL = '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e';
export const READY_MODEL = userModel({ id: MODEL_ID, name: 'Ada Portraits', status: 'completed' });
export const SECOND_READY_MODEL = userModel({
  id: SECOND_MODEL,
  name: 'Ada Outdoors',
  status: 'completed',
});

/** What a page sent to its Generate call (each call has some of these fields). */
export interface GenerateBody {
  model_id?: string;
  style?: string;
  template_id?: string;
  variant?: number;
  prompt?: string;
  num_images: number;
  trigger_word?: string;
  idempotency_key: string;
}

/**
 * How a page's tests open it: `open(user, handlers, entry)` signs `user` in (`defaultUser` unless
 * told) and opens `entry` (the page at `path` unless told). The API answers the profile
 * (`setProfile` changes it for the next read), `models` and the style cards, then `handlers`;
 * `calls(key)` are the requests made to "METHOD /path", `bodies()` those sent to the page's
 * Generate call `generate`.
 */
export function pageOpener(
  path: string,
  generate: string,
  models: UserModel[],
  defaultUser: Partial<User>,
) {
  return (user: Partial<User> = defaultUser, handlers: Handlers = {}, entry: Entry = path) =>
    openGenerationPage(entry, generate, models, user, handlers);
}

function openGenerationPage(
  entry: Entry,
  generate: string,
  models: UserModel[],
  user: Partial<User>,
  handlers: Handlers,
) {
  signIn(user);
  let profile = { ...TEST_USER, ...user };
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, profile],
    [USER_MODELS]: () => [200, { models }],
    'GET /api/v1/generation/styles': () => [200, { styles: STYLES }],
    ...handlers,
  });
  const router = renderApp(entry);
  const calls = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}` === key);
  const bodies = () =>
    calls(generate).map(([, init]) => JSON.parse(String(init?.body)) as GenerateBody);
  const setProfile = (next: Partial<User>) => {
    profile = { ...profile, ...next };
  };
  return { router, fetchMock, calls, bodies, setProfile };
}

/** The model picker offers READY_MODEL and SECOND_READY_MODEL by name, with `selected` chosen. */
export async function expectModelPicker(selected: string): Promise<void> {
  const picker = (await screen.findByLabelText('Trained model')) as HTMLSelectElement;
  expect(picker.value).toBe(selected);
  expect(
    within(picker)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Ada Portraits', 'Ada Outdoors']);
}

/**
 * At a balance of 0 Generate (`button`) is disabled, described by the reason 'You have 0
 * credits'; that reason's element.
 */
export function expectBlockedByNoCredits(button: HTMLElement): HTMLElement {
  expect((button as HTMLButtonElement).disabled).toBe(true);
  const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
  expect(reason?.textContent).toMatch(/You have 0 credits/);
  return reason!;
}

/** The answer to a Generate call when the balance cannot pay (spec: 402). */
export const outOfCredits: Handler = () => [
  402,
  { detail: MESSAGES.insufficientCredits, code: 'insufficient_credits' },
];

/** A Generate call whose first answer is a failure (502 saying `detail`), then the images. */
export function failingOnce(detail: string): Handler {
  let attempt = 0;
  return () => {
    attempt += 1;
    return attempt === 1 ? [502, { detail, code: 'generation_failed' }] : [200, generationResult()];
  };
}

/**
 * The generation is still waiting for a worker: `generate` answers 202 and the task reads queued,
 * until `finish()`, after which `generate` answers the images.
 */
export function queuedUntilFinished(generate: string) {
  let finished = false;
  const handlers: Handlers = {
    [generate]: () =>
      finished
        ? [200, generationResult()]
        : [202, generationResult({ status: 'queued', progress: 0 })],
    [`GET /api/v1/queue/status/${GENERATION_ID}`]: () => [
      200,
      queueTask({ id: GENERATION_ID, status: 'queued', progress: 0, message: null }),
    ],
  };
  return {
    handlers,
    finish: () => {
      finished = true;
    },
  };
}

/** The /ws socket the signed-in app opened, with the server's side of the handshake done. */
export function acceptedSocket(): FakeWebSocket {
  const socket = FakeWebSocket.latest();
  act(() => socket.serverAccept());
  return socket;
}

/** The server pushes the generation's task over /ws as `task` says it is now. */
export function pushTask(socket: FakeWebSocket, task: Partial<QueueTask>): void {
  act(() => socket.serverSend({ type: 'task', task: queueTask({ id: GENERATION_ID, ...task }) }));
}

/**
 * The worker reports `progress` with `message`: the progress bar `bar` moves there and the
 * message shows.
 */
export async function expectProgressShown(
  socket: FakeWebSocket,
  bar: HTMLElement,
  progress: number,
  message: string,
): Promise<void> {
  pushTask(socket, { progress, message });
  await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe(String(progress)));
  expect(screen.getAllByText(message).length).toBeGreaterThan(0);
}

/**
 * Clicks Generate (`button`) with /ws connected: the progress bar shows at 0% and the button says
 * 'Generating...', disabled. The socket and the bar follow the generation from there.
 */
export async function startGenerating(button: HTMLElement) {
  const socket = acceptedSocket();
  fireEvent.click(button);
  const bar = await screen.findByRole('progressbar', { name: 'Generation progress' });
  expect(bar.getAttribute('aria-valuenow')).toBe('0');
  const busy = screen.getByRole('button', { name: 'Generating...' }) as HTMLButtonElement;
  expect(busy.disabled).toBe(true);
  return { socket, bar };
}

/**
 * The queued generation's task ends (`queued` from queuedUntilFinished): the page asks again with
 * the same key and shows the images in the region `resultsName`, the progress bar gone.
 */
export async function expectFinishedBySameKey(
  socket: FakeWebSocket,
  queued: { finish: () => void },
  resultsName: string,
  bodies: () => GenerateBody[],
): Promise<HTMLElement> {
  queued.finish();
  pushTask(socket, { status: 'completed', progress: 100 });
  const results = await screen.findByRole('region', { name: resultsName });
  expect(bodies()).toHaveLength(2);
  expect(bodies()[1]!.idempotency_key).toBe(bodies()[0]!.idempotency_key);
  expect(screen.queryByRole('progressbar', { name: 'Generation progress' })).toBeNull();
  return results;
}

/** The 402 alert: the spec's out-of-credits message with Buy Credits to /credits. */
export async function expectOutOfCreditsAlert(): Promise<HTMLElement> {
  const alert = await screen.findByRole('alert');
  expect(within(alert).getByText(MESSAGES.insufficientCredits)).toBeTruthy();
  expect(within(alert).getByRole('link', { name: 'Buy Credits' }).getAttribute('href')).toBe(
    '/credits',
  );
  return alert;
}

/** A failed generation's alert: 'Generation failed', the `reason`, and the credit given back. */
export async function expectFailureAlert(reason: string): Promise<HTMLElement> {
  const alert = await screen.findByRole('alert');
  expect(within(alert).getByRole('heading', { name: 'Generation failed' })).toBeTruthy();
  expect(within(alert).getByText(reason)).toBeTruthy();
  expect(within(alert).getByText('Your credit has been given back.')).toBeTruthy();
  return alert;
}

/**
 * Requests to `url` are answered by `answer` (the stubbed answers by default); the first fails
 * as a lost connection does. `attempts()` counts them.
 */
export function dropFirstCall(
  fetchMock: FetchMock,
  url: string,
  answer?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
) {
  const stubbed = fetchMock.getMockImplementation()!;
  let attempt = 0;
  fetchMock.mockImplementation((input, init) => {
    if (String(input) !== url) return stubbed(input, init);
    attempt += 1;
    if (attempt === 1) return Promise.reject(new TypeError('Failed to fetch'));
    return (answer ?? stubbed)(input, init);
  });
  return { attempts: () => attempt };
}

/** Holds the answer to `url` until the test gives it with `answer`; `held()` once it is asked. */
export function holdCall(fetchMock: FetchMock, url: string) {
  const stubbed = fetchMock.getMockImplementation()!;
  let release: ((response: Response) => void) | null = null;
  fetchMock.mockImplementation((input, init) =>
    String(input) === url
      ? new Promise<Response>((resolve) => {
          release = resolve;
        })
      : stubbed(input, init),
  );
  return {
    held: () => release !== null,
    answer: (response: Response) => release!(response),
  };
}

/** Image downloads land here: an <a download> on an object URL; the list of saved file names. */
export function captureDownloads(): string[] {
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

/**
 * The tests of what a page that needs a trained model shows until it has one (TrainedModelsGate):
 * `open` opens it with `handlers` answering the API; `generateButton` finds its Generate.
 */
export function itShowsTheTrainedModelsGate(
  open: (handlers: Handlers) => void,
  generateButton: () => Promise<HTMLElement>,
): void {
  it('no completed model: No Trained Models Found, with Train Your Model to /upload', async () => {
    open({ [USER_MODELS]: () => [200, { models: [userModel({ status: 'training' })] }] });
    expect(await screen.findByRole('heading', { name: 'No Trained Models Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Train Your Model' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('models that cannot load: an error with Retry, never "no models"', async () => {
    let fail = true;
    open({
      [USER_MODELS]: () =>
        fail ? [500, { detail: 'boom', code: 'internal' }] : [200, { models: [READY_MODEL] }],
    });
    await screen.findByRole('heading', { name: 'Loading your trained models...' });
    // The query retries a server fault twice, 1 s and 2 s apart, before it shows the error.
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(await screen.findByText('Failed to load your models. Please try again.')).toBeTruthy();
    expect(screen.queryByText('No Trained Models Found')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await generateButton()).toBeTruthy();
  });
}

/** The test that a trained-model page disables Generate at 0 credits and says Out of Credits!. */
export function itBlocksGenerateAtZeroCredits(
  open: (user: Partial<User>) => void,
  generateButton: () => Promise<HTMLElement>,
): void {
  it('0 credits: Generate is disabled and says why; Out of Credits!', async () => {
    open({ credits_balance: 0 });
    expectBlockedByNoCredits(await generateButton());
    expect(screen.getByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
  });
}
