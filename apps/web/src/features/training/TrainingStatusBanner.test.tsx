import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../test/fake-websocket';
import { renderApp, signIn, stubApi } from '../../test/app-harness';
import { trainingJob } from './testing';
import type { TrainingJob } from './training-api';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

function withJobs(jobs: () => TrainingJob[], path = '/test') {
  signIn();
  const fetchMock = stubApi({ 'GET /api/v1/training/jobs': () => [200, { jobs: jobs() }] });
  const router = renderApp(path);
  return { router, fetchMock };
}

const banner = () => screen.findByRole('complementary', { name: 'Training status' });
const recently = () => new Date(Date.now() - 60_000).toISOString();

describe('global training status banner', () => {
  it('training: model name, percent and a bar; click goes to /generate', async () => {
    const { router } = withJobs(() => [trainingJob({ progress: 42 })]);
    const aside = await banner();
    const link = within(aside).getByRole('link');
    expect(link.textContent).toContain('Training Ada Portraits');
    expect(link.textContent).toContain('42%');
    const bar = within(aside).getByRole('progressbar', { name: 'Training Ada Portraits' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate'));
  });

  it('completed: "{name} ready! Click to generate" to /generate', async () => {
    const { router } = withJobs(() => [
      trainingJob({ status: 'completed', progress: 100, completed_at: recently() }),
    ]);
    fireEvent.click(
      within(await banner()).getByRole('link', { name: 'Ada Portraits ready! Click to generate' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/generate'));
    // Where the user can already generate, it has nothing to offer.
    await waitFor(() =>
      expect(screen.queryByRole('complementary', { name: 'Training status' })).toBeNull(),
    );
    await act(() => router.navigate('/test'));
    expect(await banner()).toBeTruthy();
  });

  it('failed: "{name} failed. Click to retry" to /upload', async () => {
    const { router } = withJobs(() => [
      trainingJob({ status: 'failed', error_message: 'x', completed_at: recently() }),
    ]);
    fireEvent.click(
      within(await banner()).getByRole('link', { name: 'Ada Portraits failed. Click to retry' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('is dismissible per job and status, and stays dismissed after a reload', async () => {
    let job = trainingJob({ status: 'completed', progress: 100, completed_at: recently() });
    withJobs(() => [job]);
    fireEvent.click(
      within(await banner()).getByRole('button', { name: 'Dismiss training status' }),
    );
    expect(screen.queryByRole('complementary', { name: 'Training status' })).toBeNull();

    cleanup();
    withJobs(() => [job]);
    await screen.findByRole('heading', { name: 'Auth test' });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByRole('complementary', { name: 'Training status' })).toBeNull();

    // A new training of another model is news again.
    job = trainingJob({ id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Second', progress: 10 });
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(within(await banner()).getByRole('link').textContent).toContain('Training Second');
  });

  it('an old finished job is not announced; a /ws push shows a new one at once', async () => {
    withJobs(() => [
      trainingJob({
        status: 'completed',
        progress: 100,
        completed_at: '2020-01-01T00:00:00.000Z',
        created_at: '2020-01-01T00:00:00.000Z',
      }),
    ]);
    await screen.findByRole('heading', { name: 'Auth test' });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByRole('complementary', { name: 'Training status' })).toBeNull();

    const socket = FakeWebSocket.latest();
    act(() => socket.serverAccept());
    await act(() => vi.advanceTimersByTimeAsync(50));
    act(() =>
      socket.serverSend({
        type: 'training',
        job: trainingJob({
          id: '7c9d1e2f-3a4b-4c5d-8e6f-708192a3b4c5',
          name: 'Fresh',
          status: 'pending',
          progress: 0,
        }),
      }),
    );
    const aside = await banner();
    expect(within(aside).getByRole('link').textContent).toContain('Training Fresh (queued)');
  });

  it('hidden on the training pages themselves', async () => {
    signIn();
    stubApi({
      'GET /api/v1/training/jobs': () => [200, [trainingJob()]],
      [`GET /api/v1/training/jobs/${trainingJob().id}`]: () => [200, trainingJob()],
    });
    renderApp(`/training/${trainingJob().id}`);
    await screen.findByRole('progressbar', { name: 'Training progress' });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByRole('complementary', { name: 'Training status' })).toBeNull();
  });

  it('signed out: no banner, no jobs call, no socket', async () => {
    const fetchMock = stubApi({});
    renderApp('/test');
    await screen.findByRole('heading', { name: 'Auth test' });
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/training/'))).toBe(false);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});
