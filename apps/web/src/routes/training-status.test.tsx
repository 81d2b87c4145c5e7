import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_ID, SESSION_ID, trainingJob } from '../features/training/testing';
import type { TrainingJob } from '../features/training/training-api';
import { toast } from '../lib/toast';
import { FakeWebSocket } from '../test/fake-websocket';
import { renderApp, signIn, stubApi } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

function openStatus(
  answer: () => [number, unknown],
  { id = JOB_ID, state, extra = {} }: { id?: string; state?: unknown; extra?: Handlers } = {},
) {
  signIn();
  const fetchMock = stubApi({ [`GET /api/v1/training/jobs/${id}`]: answer, ...extra });
  const router = renderApp({ pathname: `/training/${id}`, state });
  return { router, fetchMock };
}

const toasts = () => screen.getByRole('region', { name: 'Notifications' });

describe('/training/{id}', () => {
  it('shows live progress: bar, percent, step, photos, time remaining, connection', async () => {
    // The API extrapolates the job's own progress: 6 minutes to go.
    const finish = new Date(Date.now() + 6 * 60_000 + 10_000).toISOString();
    openStatus(() => [200, trainingJob({ progress: 41, estimated_completion: finish })]);
    expect(await screen.findByRole('heading', { name: 'Ada Portraits' })).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Training progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('41');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('41%');
    expect(screen.getAllByText('41%').length).toBeGreaterThan(0);
    expect(screen.getByText('Learning your features (step 4 of 10)')).toBeTruthy();
    expect(screen.getByText('12 photos')).toBeTruthy();
    expect(screen.getByText('About 6 minutes remaining')).toBeTruthy();
    expect(screen.getByText('Time remaining').nextElementSibling?.textContent).toBe('6 min');
    expect(screen.getByText(/cannot be stopped once started/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(await screen.findByRole('status', { name: 'Connection: Connected' })).toBeTruthy();
  });

  it('draws a just-started bar at 5% while reporting the true value', async () => {
    openStatus(() => [200, trainingJob({ status: 'pending', progress: 0, message: null })]);
    const bar = await screen.findByRole('progressbar', { name: 'Training progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('5%');
    expect(screen.getByText(/Waiting for a free GPU/)).toBeTruthy();
  });

  it('a /ws push updates the page at once; the socket authenticates in its first message', async () => {
    openStatus(() => [200, trainingJob({ progress: 20 })]);
    await screen.findByRole('heading', { name: 'Ada Portraits' });
    const socket = FakeWebSocket.latest();
    expect(socket.url).toBe(`ws://${window.location.host}/ws`);
    act(() => socket.serverAccept());
    expect(socket.sent[0]).toEqual({ type: 'auth', token: 'stored-access' });
    act(() =>
      socket.serverSend({
        type: 'training',
        job: trainingJob({ progress: 73, message: 'Refining details' }),
      }),
    );
    await waitFor(() =>
      expect(
        screen
          .getByRole('progressbar', { name: 'Training progress' })
          .getAttribute('aria-valuenow'),
      ).toBe('73'),
    );
    expect(screen.getByText('Refining details')).toBeTruthy();
    // The resync the ready message started was older than the push: it does not win.
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByText('Refining details')).toBeTruthy();
  });

  it('completed: one success toast, then the dashboard after 2 s', async () => {
    const success = vi.spyOn(toast, 'success');
    let job: TrainingJob = trainingJob({ progress: 90 });
    const { router } = openStatus(() => [200, job], {
      extra: {
        'GET /api/v1/users/profile': () => [200, {}],
        'GET /api/v1/training/jobs': () => [200, { jobs: [job] }],
      },
    });
    await screen.findByRole('heading', { name: 'Ada Portraits' });
    job = trainingJob({
      status: 'completed',
      progress: 100,
      completed_at: new Date().toISOString(),
    });
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(await screen.findByRole('heading', { name: 'Ada Portraits is ready!' })).toBeTruthy();
    expect(
      within(toasts()).getAllByText('Ada Portraits is ready! You can generate headshots now.'),
    ).toHaveLength(1);
    expect(router.state.location.pathname).toBe(`/training/${JOB_ID}`);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    // The dashboard's polls see the same completed job: no second toast.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(success).toHaveBeenCalledTimes(1);
  });

  it('completed, opened from the model list: waits 3 s', async () => {
    const { router } = openStatus(
      () => [200, trainingJob({ status: 'completed', progress: 100 })],
      { state: { from: 'models' } },
    );
    expect(await screen.findByText(/dashboard in 3 seconds/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2_500));
    expect(router.state.location.pathname).toBe(`/training/${JOB_ID}`);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('completed: Stay on this page keeps the visitor here', async () => {
    const { router } = openStatus(() => [200, trainingJob({ status: 'completed', progress: 100 })]);
    fireEvent.click(await screen.findByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByText(/Taking you to your dashboard/)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(router.state.location.pathname).toBe(`/training/${JOB_ID}`);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeTruthy();
  });

  it('addressed by its upload session id', async () => {
    openStatus(() => [200, trainingJob({ progress: 55 })], { id: SESSION_ID });
    expect(await screen.findByRole('heading', { name: 'Ada Portraits' })).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: 'Training progress' }).getAttribute('aria-valuenow'),
    ).toBe('55');
  });

  it('failed: the reason, an error toast once, and a way back to /upload', async () => {
    const { router } = openStatus(() => [
      200,
      trainingJob({ status: 'failed', error_message: 'No usable face found' }),
    ]);
    expect(await screen.findByRole('heading', { name: 'Training failed', level: 1 })).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Ada Portraits could not be trained' }),
    ).toBeTruthy();
    expect(screen.getByText('No usable face found')).toBeTruthy();
    expect(within(toasts()).getByText('training failed: No usable face found')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Upload New Photos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('not found: Training model not found', async () => {
    openStatus(() => [404, { detail: 'Training model not found', code: 'not_found' }]);
    expect(await screen.findByRole('heading', { name: 'Training model not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeTruthy();
  });

  it('a failing server: Failed to fetch training status, with Try Again', async () => {
    let fail = true;
    openStatus(() =>
      fail ? [500, { detail: 'Boom', code: 'internal_error' }] : [200, trainingJob()],
    );
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Failed to fetch training status' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Ada Portraits' })).toBeTruthy();
  });
});
