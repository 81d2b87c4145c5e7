import type { User } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_ID, SESSION_ID, trainingJob } from '../features/training/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

const READY_USER: Partial<User> = {
  plan_type: 'starter',
  training_limit: 1,
  models_trained: 0,
  credits_balance: 4,
};

function sessionStatus(overrides: Record<string, unknown> = {}) {
  return {
    session_id: SESSION_ID,
    session_type: 'training',
    status: 'completed',
    training_id: null,
    expected_files: 12,
    expires_at: '2030-01-01T00:00:00.000Z',
    uploaded_files: 12,
    usable_files: 12,
    checks_pending: 0,
    min_photos: 10,
    max_photos: 20,
    photos: [],
    ...overrides,
  };
}

function openStart(
  extra: Handlers = {},
  {
    user = READY_USER,
    entry,
  }: { user?: Partial<User>; entry?: Parameters<typeof renderApp>[0] } = {},
) {
  signIn(user);
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...user }],
    [`GET /api/v1/upload/session/${SESSION_ID}/status`]: () => [200, sessionStatus()],
    ...extra,
  });
  const router = renderApp(
    entry ?? {
      pathname: '/training/start',
      search: `?session=${SESSION_ID}`,
      state: { sessionId: SESSION_ID },
    },
  );
  return { router, fetchMock };
}

const form = () => screen.findByRole('form', { name: 'Start training' });

describe('/training/start', () => {
  it('names the model (default from the user) and starts; started state, then the dashboard after 3 s', async () => {
    const sent: unknown[] = [];
    const { router } = openStart({
      // One training ahead and a worker: 14 s of wait and a 14 s median, as the studio engine does.
      ...waitEstimateAnswers({ training: { median: 14, wait: 14, ahead: 1 } }),
      'POST /api/v1/training/start': ({ body }) => {
        sent.push(body);
        return [
          201,
          {
            ...trainingJob({ status: 'pending', progress: 0, name: 'Team Page' }),
            message: 'Training started',
          },
        ];
      },
    });
    const startForm = await form();
    expect(screen.getByText(/12 photos are ready for training/)).toBeTruthy();
    expect(
      await within(startForm).findByText(
        'Training should take about 30 seconds, going by the queue right now and our recent trainings. You can follow it live.',
      ),
    ).toBeTruthy();
    expect(within(startForm).getByText('Training cannot be stopped once started.')).toBeTruthy();
    const name = within(startForm).getByRole('textbox', { name: 'Model name' }) as HTMLInputElement;
    expect(name.value).toMatch(/^Ada's Headshot Model, \d{1,2} [A-Z][a-z]{2} \d{4}$/);

    fireEvent.change(name, { target: { value: '  Team Page  ' } });
    fireEvent.click(within(startForm).getByRole('button', { name: 'Start Training' }));

    expect(await screen.findByRole('heading', { name: 'Training started', level: 2 })).toBeTruthy();
    expect(sent).toEqual([
      {
        model_name: 'Team Page',
        trigger_word: 'person',
        user_id: TEST_USER.id,
        session_id: SESSION_ID,
      },
    ]);
    expect(screen.getByText(/Training should take about 30 seconds/)).toBeTruthy();
    expect(screen.getByText('Training cannot be stopped once started.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/training/start');
    await vi.advanceTimersByTimeAsync(3_000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('promises no figure while no training has been timed on the engine', async () => {
    openStart({ ...waitEstimateAnswers({ training: { median: null, wait: 0 } }) });
    const startForm = await form();
    expect(
      await within(startForm).findByText(
        'We have not timed a training on this engine yet, so we cannot say how long yours will take. You can follow it live.',
      ),
    ).toBeTruthy();
    expect(within(startForm).queryByText(/Training should take/)).toBeNull();
  });

  it('takes the session from the navigation state alone', async () => {
    openStart({}, { entry: { pathname: '/training/start', state: { sessionId: SESSION_ID } } });
    expect(await form()).toBeTruthy();
  });

  it('validates the name before calling the server', async () => {
    const { fetchMock } = openStart();
    const startForm = await form();
    fireEvent.change(within(startForm).getByRole('textbox', { name: 'Model name' }), {
      target: { value: '   ' },
    });
    fireEvent.click(within(startForm).getByRole('button', { name: 'Start Training' }));
    expect(await within(startForm).findByText('Model name is required')).toBeTruthy();
    fireEvent.change(within(startForm).getByRole('textbox', { name: 'Model name' }), {
      target: { value: 'x'.repeat(81) },
    });
    fireEvent.click(within(startForm).getByRole('button', { name: 'Start Training' }));
    expect(
      await within(startForm).findByText('Model name must be 80 characters or fewer'),
    ).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/v1/training/start')).toBe(
      false,
    );
  });

  it('401 on start (after a refresh): an authentication error asking to log in again', async () => {
    const { router } = openStart({
      'POST /api/v1/auth/refresh': () => [
        200,
        { access_token: 'a2', refresh_token: 'r2', token_type: 'bearer', expires_in: 3600 },
      ],
      'POST /api/v1/training/start': () => [
        401,
        { detail: 'Not authenticated', code: 'unauthorized' },
      ],
    });
    fireEvent.click(within(await form()).getByRole('button', { name: 'Start Training' }));
    expect(await screen.findByText('Authentication error. Please log in again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem('authRedirect')).toBe(
      `/training/start?session=${SESSION_ID}`,
    );
  });

  it('limit reached on start: the spec message and an upgrade path', async () => {
    const { router } = openStart({
      'POST /api/v1/training/start': () => [
        403,
        { detail: 'Training limit reached. Please upgrade your plan.', code: 'forbidden' },
      ],
    });
    fireEvent.click(within(await form()).getByRole('button', { name: 'Start Training' }));
    const panel = await screen.findByRole('status', {
      name: 'Training limit reached. Please upgrade your plan.',
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Buy More Trainings' }));
    expect(await screen.findByRole('dialog', { name: 'Train more models' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    fireEvent.click(within(panel).getByRole('link', { name: 'Upgrade Plan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toMatchObject({ reason: 'upgrade' });
  });

  it('no plan (403 with its reason): choose a plan first', async () => {
    openStart({
      'POST /api/v1/training/start': () => [
        403,
        { detail: 'Choose a plan to train your personal model.', code: 'forbidden' },
      ],
    });
    fireEvent.click(within(await form()).getByRole('button', { name: 'Start Training' }));
    const panel = await screen.findByRole('status', { name: 'Choose a plan to train' });
    expect(within(panel).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });

  it('already at the limit: no form, the limit message', async () => {
    openStart({}, { user: { ...READY_USER, models_trained: 1 } });
    expect(
      await screen.findByRole('status', {
        name: 'Training limit reached. Please upgrade your plan.',
      }),
    ).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Start training' })).toBeNull();
  });

  it('other failures show the server detail, else Failed to start training', async () => {
    let answer: [number, unknown] = [
      503,
      { detail: 'Queue system initializing...', code: 'service_unavailable' },
    ];
    openStart({ 'POST /api/v1/training/start': () => answer });
    const startForm = await form();
    fireEvent.click(within(startForm).getByRole('button', { name: 'Start Training' }));
    expect(await within(startForm).findByText('Queue system initializing...')).toBeTruthy();
    answer = [500, {}];
    fireEvent.click(within(startForm).getByRole('button', { name: 'Start Training' }));
    expect(await within(startForm).findByText('Failed to start training')).toBeTruthy();
  });

  it('a session that already has a training shows its live status', async () => {
    openStart({
      [`GET /api/v1/upload/session/${SESSION_ID}/status`]: () => [
        200,
        sessionStatus({ training_id: JOB_ID }),
      ],
      [`GET /api/v1/training/jobs/${JOB_ID}`]: () => [200, trainingJob({ progress: 64 })],
      // No extrapolation from the API yet: the rest of a measured 10-minute median.
      ...waitEstimateAnswers({ training: { median: 600 } }),
    });
    expect(await screen.findByRole('heading', { name: 'Ada Portraits' })).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: 'Training progress' }).getAttribute('aria-valuenow'),
    ).toBe('64');
    expect(screen.getByText('12 photos')).toBeTruthy();
    expect(await screen.findByText('About 4 minutes remaining')).toBeTruthy();
    expect(await screen.findByRole('status', { name: /^Connection: / })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Start training' })).toBeNull();
  });

  it('started elsewhere meanwhile (409): shows that training', async () => {
    let trainingId: string | null = null;
    openStart({
      [`GET /api/v1/upload/session/${SESSION_ID}/status`]: () => [
        200,
        sessionStatus({ training_id: trainingId }),
      ],
      'POST /api/v1/training/start': () => {
        trainingId = JOB_ID;
        return [
          409,
          {
            detail: 'A model is already being trained from this upload session.',
            code: 'conflict',
          },
        ];
      },
      [`GET /api/v1/training/jobs/${JOB_ID}`]: () => [200, trainingJob({ progress: 30 })],
    });
    fireEvent.click(within(await form()).getByRole('button', { name: 'Start Training' }));
    expect(await screen.findByRole('progressbar', { name: 'Training progress' })).toBeTruthy();
  });

  it('an unknown session: Upload session not found', async () => {
    openStart({
      [`GET /api/v1/upload/session/${SESSION_ID}/status`]: () => [
        404,
        { detail: 'Upload session not found', code: 'not_found' },
      ],
    });
    expect(await screen.findByRole('heading', { name: 'Upload session not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upload Photos' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('without a session: the training in progress, else a way to /upload', async () => {
    openStart(
      { 'GET /api/v1/training/jobs': () => [200, { jobs: [trainingJob({ progress: 12 })] }] },
      { entry: '/training/start' },
    );
    expect(await screen.findByRole('progressbar', { name: 'Training progress' })).toBeTruthy();
  });

  it('without a session or a training: Upload your photos first', async () => {
    openStart(
      {
        'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
        'GET /api/v1/upload/sessions': () => [200, { photo_sets: [] }],
      },
      { entry: '/training/start' },
    );
    expect(await screen.findByRole('heading', { name: 'Upload your photos first' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upload Photos' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('without a session but with a checked set on the server: Continue, then the name form', async () => {
    const completed: string[] = [];
    let status = 'uploading';
    const { router } = openStart(
      {
        'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
        'GET /api/v1/upload/sessions': () => [
          200,
          {
            photo_sets: [
              {
                id: SESSION_ID,
                status,
                created_at: '2026-11-22T12:00:00.000Z',
                photo_count: 12,
                photos_purged_at: null,
                photos_purge_due_at: null,
                model: null,
              },
            ],
          },
        ],
        [`GET /api/v1/upload/session/${SESSION_ID}/status`]: () => [
          200,
          sessionStatus({ status, usable_files: 10 }),
        ],
        [`POST /api/v1/upload/complete/${SESSION_ID}`]: () => {
          completed.push(SESSION_ID);
          status = 'completed';
          return [
            200,
            {
              uploaded_files: 12,
              usable_files: 10,
              message: 'Upload complete: 10 photos are ready for training.',
            },
          ];
        },
      },
      { entry: '/training/start' },
    );
    const card = await screen.findByRole('region', { name: 'Continue: 10 usable photos' });
    fireEvent.click(within(card).getByRole('button', { name: 'Start training' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?session=${SESSION_ID}`));
    expect(completed).toEqual([SESSION_ID]);
    expect(await form()).toBeTruthy();
  });
});
