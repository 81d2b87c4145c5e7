import type { Fleet } from '@studioshot/contracts/admin';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

const FLEET_CALL = 'GET /api/v1/admin/fleet';

/** A fleet as the API reads it: a studio worker on a training, an idle photo-checks worker. */
function fleetOf(overrides: Partial<Fleet> = {}): Fleet {
  return {
    workers: [
      {
        name: 'cpu-node-1:4242',
        engine_kind: 'studio',
        queues: ['training.studio', 'generation.studio'],
        current_jobs: [
          {
            queue: 'training.studio',
            job_id: 'task-7f3a',
            job_name: 'model.train',
            started_at: '2026-11-28T09:00:00.000Z',
          },
        ],
      },
      { name: 'checks-1:77', engine_kind: null, queues: ['photo-checks'], current_jobs: [] },
    ],
    gpu_seconds_today: 5400,
    cost_projection: {
      projected_monthly_cost: 112.5,
      always_on_cost: 1800,
      savings_percent: 93.8,
      efficiency_rating: 'excellent',
      gpu_seconds_last_30_days: 162_000,
      gpu_hourly_rate: 2.5,
    },
    wait_estimate: {
      engine_kind: 'studio',
      training: {
        median_duration_seconds: 300,
        sample_size: 7,
        estimated_wait_seconds: 600,
        expected_seconds: 900,
        worker_connected: true,
      },
      generation: {
        median_duration_seconds: 20,
        sample_size: 7,
        estimated_wait_seconds: 0,
        expected_seconds: 20,
        worker_connected: true,
      },
      max_age_seconds: 60,
    },
    queues: [
      {
        task_type: 'training',
        queue: 'training.studio',
        waiting: 3,
        active: 1,
        delayed: 0,
        completed: 12,
        failed: 2,
        workers: 1,
        estimated_wait_seconds: 600,
      },
    ],
    checked_at: '2026-11-28T09:05:00.000Z',
    ...overrides,
  };
}

/** The fleet page for a signed-in user, with the fleet call answered by `answer`. */
function fleetPage(answer: () => [number, unknown]) {
  signIn();
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, TEST_USER],
    [FLEET_CALL]: answer,
  });
  renderApp('/admin/fleet');
  return {
    fleetCalls: () =>
      fetchMock.mock.calls.filter(([input]) => String(input) === FLEET_CALL.slice(4)),
  };
}

describe('the fleet page', () => {
  it('says it is loading while the fleet is read', async () => {
    signIn();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const fetchMock = stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      [FLEET_CALL]: () => [200, fleetOf()],
    });
    // The fleet's answer waits until the test lets it through.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/v1/admin/fleet') await answered;
        return fetchMock(input, init);
      }),
    );
    renderApp('/admin/fleet');
    const loading = await screen.findByText('Loading the fleet...');
    expect(loading.closest('[aria-busy="true"]')).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Workers by engine kind' })).toBeNull();

    answer();
    await screen.findByRole('heading', { name: 'Workers by engine kind' });
    expect(screen.queryByText('Loading the fleet...')).toBeNull();
  });

  it('shows the workers by engine kind with their current job, GPU time today, cost and waits', async () => {
    fleetPage(() => [200, fleetOf()]);
    await screen.findByRole('heading', { name: 'Workers by engine kind' });

    const figure = (label: string) => screen.getByText(label).closest('div')!;
    expect(within(figure('Workers online')).getByText('2')).toBeTruthy();
    expect(within(figure('GPU time today')).getByText('1 h 30 min')).toBeTruthy();
    const cost = figure('Projected monthly cost');
    expect(within(cost).getByText('$112.50')).toBeTruthy();
    expect(within(cost).getByText('93.8% below an always-on GPU ($1,800.00)')).toBeTruthy();
    const wait = figure('Wait for a training (studio)');
    expect(within(wait).getByText('about 15 minutes')).toBeTruthy();
    expect(within(wait).getByText('A generation: about 20 seconds')).toBeTruthy();

    // Each engine kind's workers under its own heading, the busy one with the job it holds.
    const studio = screen.getByRole('heading', { name: 'Studio (CPU) · 1' }).parentElement!;
    expect(within(studio).getByText('cpu-node-1:4242')).toBeTruthy();
    expect(within(studio).getByText('model.train')).toBeTruthy();
    expect(within(studio).getByText('task-7f3a')).toBeTruthy();
    const checks = screen.getByRole('heading', { name: 'Photo checks · 1' }).parentElement!;
    expect(within(checks).getByText('checks-1:77')).toBeTruthy();
    expect(within(checks).getByText('Idle')).toBeTruthy();

    // The queue table: one row per queue, its figures under the column headings.
    const table = screen.getByRole('table');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headings).toEqual([
      'Queue',
      'Waiting',
      'Running',
      'Failed',
      'Workers',
      'Estimated wait',
    ]);
    const row = within(table).getByRole('row', { name: /training\.studio/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3', '1', '2', '1', 'about 10 minutes']);
  });

  it('says so when no worker is online, and what a queued task does meanwhile', async () => {
    fleetPage(() => [
      200,
      fleetOf({
        workers: [],
        gpu_seconds_today: 0,
        wait_estimate: {
          ...fleetOf().wait_estimate,
          training: {
            median_duration_seconds: null,
            sample_size: 0,
            estimated_wait_seconds: null,
            expected_seconds: null,
            worker_connected: false,
          },
        },
      }),
    ]);
    await screen.findByText('No workers online. Queued tasks wait until a worker connects.');
    const figure = (label: string) => screen.getByText(label).closest('div')!;
    expect(within(figure('Workers online')).getByText('0')).toBeTruthy();
    expect(within(figure('GPU time today')).getByText('0 s')).toBeTruthy();
    expect(
      within(figure('Wait for a training (studio)')).getByText('No worker connected'),
    ).toBeTruthy();
    expect(screen.queryByText('Idle')).toBeNull();
  });

  it('says the fleet could not be read, and reads it again on Try Again', async () => {
    let fails = true;
    const { fleetCalls } = fleetPage(() =>
      fails
        ? [503, { detail: 'The queue is unavailable right now.', code: 'service_unavailable' }]
        : [200, fleetOf()],
    );
    await screen.findByRole('heading', { name: 'The fleet could not be read' });
    expect(screen.getByText('The queue is unavailable right now.')).toBeTruthy();
    const callsBefore = fleetCalls().length;

    fails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('heading', { name: 'Workers by engine kind' });
    expect(fleetCalls().length).toBe(callsBefore + 1);
    expect(screen.queryByText('The fleet could not be read')).toBeNull();
  });

  it('is the page that is not there to anyone the API does not take for an admin', async () => {
    const { fleetCalls } = fleetPage(() => [404, { detail: 'Not found', code: 'not_found' }]);
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.queryByRole('heading', { name: 'Fleet' })).toBeNull();
    // A 404 is an answer, not a failure to retry.
    expect(fleetCalls()).toHaveLength(1);
  });
});
