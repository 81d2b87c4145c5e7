import type { User } from '@studioshot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FREE_SUBSCRIPTION, pricingAnswer, subscriptionAnswer } from '../features/payments/testing';
import { JOB_ID, SESSION_ID, trainingJob, userModel } from '../features/training/testing';
import { FakeWebSocket } from '../test/fake-websocket';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';
import { waitEstimateAnswers } from '../features/queue/testing';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

const QUEUE_ANSWERS: Handlers = {
  'GET /api/v1/queue/user/status': () => [
    200,
    { pending_tasks: 1, running_tasks: 2, total_tasks: 3 },
  ],
  'GET /api/v1/queue/cost/projection': () => [
    200,
    {
      projected_monthly_cost: 12.5,
      always_on_cost: 1130,
      savings_percent: 98.9,
      efficiency_rating: 'excellent',
      gpu_seconds_last_30_days: 5400,
      gpu_hourly_rate: 2.5,
    },
  ],
  'GET /api/v1/queue/status': () => [
    200,
    {
      queues: [
        {
          task_type: 'training',
          queue: 't',
          waiting: 4,
          active: 1,
          delayed: 0,
          completed: 9,
          failed: 0,
          workers: 2,
          estimated_wait_seconds: 600,
        },
        {
          task_type: 'generation',
          queue: 'g',
          waiting: 9,
          active: 3,
          delayed: 0,
          completed: 9,
          failed: 0,
          workers: 5,
          estimated_wait_seconds: 20,
        },
      ],
      checked_at: '2026-11-22T12:00:00.000Z',
    },
  ],
};

function dashboard(user: Partial<User>, extra: Handlers = {}) {
  signIn(user);
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...user }],
    'GET /api/v1/payments/subscription': () => [200, FREE_SUBSCRIPTION],
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    'GET /api/v1/upload/user-models': () => [200, { models: [] }],
    'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
    'GET /api/v1/upload/sessions': () => [200, { photo_sets: [] }],
    ...QUEUE_ANSWERS,
    ...extra,
  });
  const router = renderApp('/dashboard');
  return { router, fetchMock };
}

const subscription = () => screen.findByRole('region', { name: 'Subscription' });

describe('dashboard subscription manager', () => {
  it('free: says so and links to /pricing', async () => {
    dashboard({});
    const panel = await subscription();
    expect(await within(panel).findByRole('link', { name: 'View Plans' })).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });

  it('active: cancel asks first, then shows cancelling with access-until and Reactivate', async () => {
    let state = subscriptionAnswer();
    const calls: string[] = [];
    dashboard(
      { plan_type: 'professional', training_limit: 5, credits_balance: 20 },
      {
        'GET /api/v1/payments/subscription': () => [200, state],
        'POST /api/v1/payments/cancel-subscription': () => {
          calls.push('cancel');
          state = subscriptionAnswer({
            status: 'cancelling',
            cancel_at_period_end: true,
            cancel_status: 'cancelling',
            can_cancel: false,
            can_reactivate: true,
          });
          return [
            200,
            {
              message:
                'Your subscription is cancelled. You keep your plan until 2026-12-22, and your credits never expire.',
              access_until: '2026-12-22T12:00:00.000Z',
              credits_retained: 20,
            },
          ];
        },
        'POST /api/v1/payments/reactivate-subscription': () => {
          calls.push('reactivate');
          state = subscriptionAnswer();
          return [
            200,
            {
              message: 'Your professional plan is active again and renews on 2026-12-22.',
              subscription: state,
            },
          ];
        },
      },
    );
    const panel = await subscription();
    expect(await within(panel).findByText('Professional')).toBeTruthy();
    expect(within(panel).getByText('$19.99/month')).toBeTruthy();
    expect(within(panel).getByText('Next charge')).toBeTruthy();
    expect(within(panel).getByText('$19.99 on December 22, 2026')).toBeTruthy();
    expect(within(panel).getByText('8 credits and trainings renew')).toBeTruthy();
    expect(within(panel).getByText('December 22, 2026')).toBeTruthy();
    expect(within(panel).getByText('5 models')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel Subscription' }));
    expect(calls).toEqual([]);
    expect(within(panel).getByText('Cancel your Professional subscription?')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Keep Subscription' }));
    expect(within(panel).queryByText('Cancel your Professional subscription?')).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('Subscription cancelled')).toBeTruthy();
    expect(await within(panel).findByText(/You keep your plan until 2026-12-22/)).toBeTruthy();
    expect(within(panel).getByText(/20 credits retained/)).toBeTruthy();
    expect(await within(panel).findByText('Cancelling')).toBeTruthy();
    expect(within(panel).getByText('Access until')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Reactivate Subscription' }));
    expect(await screen.findByText(/active again/)).toBeTruthy();
    expect(await within(panel).findByText('Active')).toBeTruthy();
    expect(calls).toEqual(['cancel', 'reactivate']);
  });

  it.each([
    ['load', 'Failed to load subscription information'],
    ['cancel', 'Failed to cancel subscription'],
    ['reactivate', 'Failed to reactivate subscription'],
  ])('%s failure shows %s', async (which, message) => {
    dashboard(
      { plan_type: 'professional', training_limit: 5 },
      {
        'GET /api/v1/payments/subscription': () =>
          which === 'load'
            ? [404, {}]
            : [
                200,
                subscriptionAnswer(
                  which === 'reactivate'
                    ? { status: 'cancelling', can_cancel: false, can_reactivate: true }
                    : {},
                ),
              ],
        'POST /api/v1/payments/cancel-subscription': () => [409, {}],
        'POST /api/v1/payments/reactivate-subscription': () => [409, {}],
      },
    );
    const panel = await subscription();
    if (which === 'cancel') {
      fireEvent.click(await within(panel).findByRole('button', { name: 'Cancel Subscription' }));
      fireEvent.click(within(panel).getByRole('button', { name: 'Yes, Cancel Subscription' }));
    }
    if (which === 'reactivate') {
      fireEvent.click(
        await within(panel).findByRole('button', { name: 'Reactivate Subscription' }),
      );
    }
    expect(await within(panel).findByText(message)).toBeTruthy();
  });
});

describe('dashboard credits and training', () => {
  it('shows the stat cards, the out-of-credits banner, and refreshes every 10 s', async () => {
    const { fetchMock } = dashboard({ credits_balance: 0, total_generations: 7 });
    expect(await screen.findByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    expect(screen.getByText('Models Trained / Limit')).toBeTruthy();
    expect(screen.getByText('Credits Available')).toBeTruthy();
    expect(screen.getByText('Current Plan')).toBeTruthy();
    expect(screen.getByText('Total Generations')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();

    const profileCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/users/profile').length;
    const before = profileCalls();
    await vi.advanceTimersByTimeAsync(10_000);
    await waitFor(() => expect(profileCalls()).toBeGreaterThan(before));
  });

  it("the training allowance card says when this period's trainings renew", async () => {
    dashboard(
      { plan_type: 'professional', training_limit: 5, models_trained: 2, credits_balance: 10 },
      { 'GET /api/v1/payments/subscription': () => [200, subscriptionAnswer()] },
    );
    expect(await screen.findByText('3 slots remaining · resets December 22, 2026')).toBeTruthy();
  });

  it('a low balance can be dismissed', async () => {
    dashboard({ credits_balance: 2 });
    expect(await screen.findByRole('heading', { name: 'Almost Out of Credits!' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('heading', { name: 'Almost Out of Credits!' })).toBeNull();
  });

  it('free plan, no model: one primary step, Choose a plan, saying why', async () => {
    const { router } = dashboard({ credits_balance: 10 });
    const step = await screen.findByRole('region', { name: 'Choose a plan to train your model' });
    expect(
      within(step).getByText(/training comes with a monthly plan, from \$9\.99 a month/i),
    ).toBeTruthy();
    expect(screen.getByText('Training comes with a plan')).toBeTruthy();
    // No second way to the same place competes with it.
    expect(screen.queryByRole('button', { name: 'Upgrade to Train AI Model' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Train Your First Model' })).toBeNull();
    fireEvent.click(within(step).getByRole('button', { name: 'Choose a plan' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(
      await screen.findByRole('heading', { name: 'Choose a plan to train your model' }),
    ).toBeTruthy();
  });

  it('a set uploaded and not trained yet: Continue on the dashboard', async () => {
    dashboard(PAID, {
      'GET /api/v1/upload/sessions': () => [
        200,
        {
          photo_sets: [
            {
              id: SESSION_ID,
              status: 'completed',
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
        {
          session_id: SESSION_ID,
          session_type: 'training',
          status: 'completed',
          training_id: null,
          expected_files: 12,
          expires_at: '2030-01-01T00:00:00.000Z',
          uploaded_files: 12,
          usable_files: 11,
          checks_pending: 0,
          min_photos: 10,
          max_photos: 20,
          photos: [],
        },
      ],
    });
    const card = await screen.findByRole('region', { name: 'Continue: 11 usable photos' });
    expect(within(card).getByRole('button', { name: 'Start training' })).toBeTruthy();
  });

  it('with slots left: + Train New Model goes to /upload', async () => {
    const { router } = dashboard({
      plan_type: 'professional',
      training_limit: 5,
      models_trained: 2,
      credits_balance: 10,
    });
    expect(await screen.findByText('3 slots remaining')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '+ Train New Model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('a brand-new free account is not greeted with an out-of-credits alarm', async () => {
    dashboard({ credits_balance: 0, total_generations: 0, models_trained: 0, plan_type: 'free' });
    expect(await screen.findByText('Credits Available')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Out of Credits!' })).toBeNull();
  });

  it('at the limit: the train action goes to /pricing to upgrade', async () => {
    const { router } = dashboard({
      plan_type: 'starter',
      training_limit: 1,
      models_trained: 1,
      credits_balance: 10,
    });
    expect(await screen.findByText('Plan limit reached (1 model max)')).toBeTruthy();
    expect(await screen.findByText('Limit reached')).toBeTruthy();
    fireEvent.click(
      screen.getByRole('button', { name: 'Plan limit reached - upgrade for more models' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toEqual({
      reason: 'upgrade',
      message: 'Upgrade your plan to train more models:',
    });
    expect(await screen.findByText('Upgrade your plan to train more models:')).toBeTruthy();
  });

  it('Upgrade Plan to Train More goes to /pricing with the upgrade reason', async () => {
    const { router } = dashboard({
      plan_type: 'professional',
      training_limit: 5,
      models_trained: 5,
      credits_balance: 10,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Plan to Train More' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toMatchObject({ reason: 'upgrade' });
  });

  it('generate without credits goes to /pricing with the Need Credits banner', async () => {
    const { router } = dashboard({
      plan_type: 'starter',
      training_limit: 1,
      models_trained: 1,
      credits_balance: 0,
    });
    fireEvent.click(await screen.findByRole('button', { name: /Generate Premium Headshots/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(await screen.findByRole('region', { name: 'Need Credits' })).toBeTruthy();
  });
});

const PAID: Partial<User> = {
  plan_type: 'professional',
  training_limit: 5,
  models_trained: 1,
  credits_balance: 10,
};

const modelsSection = () => screen.findByRole('region', { name: /^Trained Models/ });
const modelItem = async (name: string) =>
  within(await modelsSection()).findByRole('article', { name });

describe('dashboard trained models', () => {
  it('says Loading your dashboard... until the profile arrives', async () => {
    signIn(PAID);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderApp('/dashboard');
    expect(await screen.findByText('Loading your dashboard...')).toBeTruthy();
    expect(screen.getByText('Loading your models...')).toBeTruthy();
    expect(screen.getByText('Loading your tasks...')).toBeTruthy();
  });

  it('lists a ready model: badge, type, date, short id; Generate Headshots goes to /generate', async () => {
    const { router } = dashboard(PAID, {
      'GET /api/v1/upload/user-models': () => [
        200,
        { models: [userModel({ status: 'completed' })] },
      ],
    });
    const item = await modelItem('Ada Portraits');
    expect(within(item).getByText('Ready')).toBeTruthy();
    expect(within(item).getByText('lora')).toBeTruthy();
    expect(within(item).getByText('Created November 20, 2026')).toBeTruthy();
    expect(within(item).getByText(JOB_ID.slice(0, 8))).toBeTruthy();
    expect(within(item).queryByText('Need credits')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'All models ready!' })).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Generate Headshots' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate'));
    expect(router.state.location.state).toEqual({ modelId: JOB_ID });
  });

  it('without credits: a Need credits hint, and generating leads to /pricing', async () => {
    const { router } = dashboard(
      { ...PAID, credits_balance: 0 },
      {
        'GET /api/v1/upload/user-models': () => [
          200,
          { models: [userModel({ status: 'completed' })] },
        ],
      },
    );
    const item = await modelItem('Ada Portraits');
    expect(within(item).getByText('Need credits')).toBeTruthy();
    expect(screen.getByText('(0 credits remaining)')).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Generate Headshots' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toEqual({
      reason: 'credits',
      message: 'You need credits to generate headshots. Purchase credit packs below:',
    });
    const banner = await screen.findByRole('region', { name: 'Need Credits' });
    expect(
      within(banner).getByText(
        'You need credits to generate headshots. Purchase credit packs below:',
      ),
    ).toBeTruthy();
  });

  it('a model in training: a live pill to /training/{id}, Training... and the measured duration in the banner', async () => {
    const { router } = dashboard(PAID, {
      // Recent trainings took 20 minutes (median): the spec's '15-30 minutes' is true.
      ...waitEstimateAnswers({ training: { median: 20 * 60 } }),
      'GET /api/v1/upload/user-models': () => [200, { models: [userModel()] }],
      'GET /api/v1/training/jobs': () => [200, { jobs: [trainingJob({ progress: 40 })] }],
      [`GET /api/v1/training/jobs/${JOB_ID}`]: () => [200, trainingJob({ progress: 40 })],
    });
    const item = await modelItem('Ada Portraits');
    expect(within(item).getByText('Training')).toBeTruthy();
    const busy = within(item).getByRole('button', { name: 'Training...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(screen.getByRole('heading', { name: 'Training in progress' })).toBeTruthy();
    expect(
      await screen.findByText(
        'Your AI model is training. This typically takes 15-30 minutes; we will let you know when it is ready.',
      ),
    ).toBeTruthy();

    const pills = within(await modelsSection()).getByRole('list', { name: 'Models in training' });
    const pill = await within(pills).findByRole('link', { name: /Training Ada Portraits/ });
    await waitFor(() => expect(pill.textContent).toContain('40%'));

    // A push moves the percent at once.
    act(() => FakeWebSocket.latest().serverAccept());
    await act(() => vi.advanceTimersByTimeAsync(50));
    act(() =>
      FakeWebSocket.latest().serverSend({ type: 'training', job: trainingJob({ progress: 65 }) }),
    );
    await waitFor(() => expect(pill.textContent).toContain('65%'));

    fireEvent.click(pill);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/training/${JOB_ID}`));
    expect(router.state.location.state).toEqual({ from: 'models' });
  });

  it('a failed model: Failed badge, the reason, and a retry path to /upload', async () => {
    const { router } = dashboard(PAID, {
      'GET /api/v1/upload/user-models': () => [200, { models: [userModel({ status: 'failed' })] }],
      'GET /api/v1/training/jobs': () => [
        200,
        { jobs: [trainingJob({ status: 'failed', error_message: 'Too few usable photos' })] },
      ],
    });
    const item = await modelItem('Ada Portraits');
    expect(within(item).getByText('Failed')).toBeTruthy();
    expect(await within(item).findByText('Training failed: Too few usable photos')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'A model failed to train' })).toBeTruthy();
    fireEvent.click(within(item).getByRole('link', { name: 'Retry Training' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('no models: No Trained Models Yet, and Train Your First Model follows eligibility', async () => {
    const { router } = dashboard({ ...PAID, models_trained: 0 });
    const section = await modelsSection();
    expect(
      await within(section).findByRole('heading', { name: 'No Trained Models Yet' }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Generate Premium Headshots/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Model status' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Train Your First Model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('at the limit: Train New Model is disabled with the limit tooltip', async () => {
    dashboard(
      { ...PAID, models_trained: 5 },
      {
        'GET /api/v1/upload/user-models': () => [
          200,
          { models: [userModel({ status: 'completed' })] },
        ],
      },
    );
    await modelItem('Ada Portraits');
    const button = within(await modelsSection()).getByRole('button', {
      name: 'Train New Model',
    }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const tooltip = 'Plan limit reached (5 models max). Upgrade your plan to train more.';
    expect(button.parentElement?.getAttribute('title')).toBe(tooltip);
    expect(
      document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe(tooltip);
    expect(screen.getByText('Plan limit reached (5 models max)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upgrade Plan to Train More' })).toBeTruthy();
  });

  it('premium at the limit: Premium plan - Maximum models reached', async () => {
    dashboard({ plan_type: 'premium', training_limit: 10, models_trained: 10, credits_balance: 9 });
    expect(await screen.findByText('Premium plan - Maximum models reached')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upgrade Plan to Train More' })).toBeNull();
    expect(screen.queryByRole('button', { name: '+ Train New Model' })).toBeNull();
  });

  it('shows the error banner when the models cannot load, and retries', async () => {
    let fail = true;
    dashboard(PAID, {
      'GET /api/v1/upload/user-models': () =>
        fail ? [500, {}] : [200, { models: [userModel({ status: 'completed' })] }],
    });
    const alert = await screen.findByRole('alert', {}, { timeout: 6000 });
    expect(alert.textContent).toContain('Failed to load your models. Please try again.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await modelItem('Ada Portraits')).toBeTruthy();
  });

  it('refreshes the models every 10 s and 2 s after trainingStatusChanged', async () => {
    const { fetchMock } = dashboard(PAID);
    await within(await modelsSection()).findByRole('heading', { name: 'No Trained Models Yet' });
    const modelCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/upload/user-models').length;
    const first = modelCalls();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(modelCalls()).toBeGreaterThan(first));

    const before = modelCalls();
    act(() => void window.dispatchEvent(new Event('trainingStatusChanged')));
    await act(() => vi.advanceTimersByTimeAsync(1_900));
    expect(modelCalls()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(modelCalls()).toBe(before + 1));
  });
});

describe('dashboard queue panel', () => {
  const panel = () => screen.findByRole('region', { name: 'Your tasks' });

  it("shows the user's tasks and the wait for a new training, every 30 s, and no fleet cost", async () => {
    const { fetchMock } = dashboard(PAID);
    const queue = await panel();
    expect(
      await within(queue).findByText('A training started now begins in about 10 min.'),
    ).toBeTruthy();
    expect(within(queue).getByText('Waiting').nextElementSibling?.textContent).toBe('1');
    expect(within(queue).getByText('Running').nextElementSibling?.textContent).toBe('2');
    expect(within(queue).getByText('Total').nextElementSibling?.textContent).toBe('3');
    // The cost projection is an operator's figure, not the user's.
    expect(screen.queryByText(/always-on/)).toBeNull();
    expect(screen.queryByText(/GPU cost/i)).toBeNull();
    expect(
      fetchMock.mock.calls.some(([url]) => String(url) === '/api/v1/queue/cost/projection'),
    ).toBe(false);

    const taskCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/queue/user/status').length;
    const before = taskCalls();
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(taskCalls()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(taskCalls()).toBe(before + 1));
  });

  it('queue not ready: Queue system initializing...', async () => {
    dashboard(PAID, {
      'GET /api/v1/queue/user/status': () => [
        503,
        { detail: 'Queue system initializing...', code: 'service_unavailable' },
      ],
    });
    const queue = await panel();
    expect(
      await within(queue).findByText('Queue system initializing...', {}, { timeout: 8000 }),
    ).toBeTruthy();
  });
});
