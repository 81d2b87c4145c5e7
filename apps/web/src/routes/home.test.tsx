import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitEstimateAnswers } from '../features/queue/testing';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi } from '../test/app-harness';

describe('landing', () => {
  it('signed out: hero actions, nav, footer label and server version', async () => {
    stubApi({
      'GET /health': () => [
        200,
        { status: 'ok', version: '0123456789abcdef', database: 'up', redis: 'up', uptime_s: 3 },
      ],
    });
    renderApp('/');

    expect(await screen.findByRole('button', { name: 'Start Creating' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try FREE Demo' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /See Interactive Demo/ })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Get Started' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(screen.getByText("v0.3.0 'CI/CD Automation'")).toBeTruthy();
    expect(await screen.findByText('git-0123456')).toBeTruthy();
    for (const style of ['Executive', 'Creative', 'Business']) {
      expect(screen.getByRole('heading', { name: style })).toBeTruthy();
    }
  });

  it('Get Started while signed out remembers /pricing and goes to /auth', async () => {
    stubApi({});
    const router = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Get Started' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe('/pricing');
  });

  it.each([
    ['the jobs call fails', {}, '/pricing'],
    [
      'a server error on the jobs call',
      { 'GET /api/v1/training/jobs': () => [500, { detail: 'boom', code: 'internal' }] },
      '/pricing',
    ],
    [
      'a running job',
      { 'GET /api/v1/training/jobs': () => [200, { jobs: [{ id: 'j1', status: 'running' }] }] },
      '/training/j1',
    ],
    [
      'a pending job after a completed one',
      {
        'GET /api/v1/training/jobs': () => [
          200,
          {
            jobs: [
              { id: 'done', status: 'completed' },
              { id: 'j2', status: 'pending' },
            ],
          },
        ],
      },
      '/training/j2',
    ],
    [
      'a training job',
      { 'GET /api/v1/training/jobs': () => [200, { jobs: [{ id: 'j3', status: 'training' }] }] },
      '/training/j3',
    ],
    [
      'a completed job',
      {
        'GET /api/v1/training/jobs': () => [
          200,
          {
            jobs: [
              { id: 'f', status: 'failed' },
              { id: 'c', status: 'completed' },
            ],
          },
        ],
      },
      '/generate',
    ],
    [
      'jobs but none completed',
      { 'GET /api/v1/training/jobs': () => [200, { jobs: [{ id: 'f', status: 'failed' }] }] },
      '/pricing',
    ],
    [
      'no jobs but an uploaded model',
      {
        'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
        'GET /api/v1/upload/user-models': () => [200, { models: [{ id: 'm1' }] }],
      },
      '/generate',
    ],
    [
      'no jobs and no models',
      {
        'GET /api/v1/training/jobs': () => [200, []],
        'GET /api/v1/upload/user-models': () => [200, { models: [] }],
      },
      '/dashboard',
    ],
    [
      'no jobs and the models call failing',
      {
        'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
        'GET /api/v1/upload/user-models': () => [500, { detail: 'boom', code: 'internal' }],
      },
      '/pricing',
    ],
  ] as const)(
    'Get Started while signed in: %s goes to the right page',
    async (_case, handlers, target) => {
      signIn();
      stubApi(handlers as Parameters<typeof stubApi>[0]);
      const router = renderApp('/');
      const cta = await screen.findByRole('region', {
        name: 'Ready for your next set of headshots?',
      });
      fireEvent.click(within(cta).getByRole('button', { name: 'Get Started' }));
      await waitFor(() => expect(router.state.location.pathname).toBe(target));
    },
  );

  it('signed in: welcome back by best name with e-mail and next steps', async () => {
    signIn({ name: '', full_name: '', first_name: '', email: 'grace@example.com' });
    stubApi({});
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome back, grace!' })).toBeTruthy();
    expect(screen.getByText('grace@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(screen.getByRole('link', { name: 'Upload Photos' }).getAttribute('href')).toBe(
      '/upload',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  describe('the time to results: what the queue and the engine give, else no promise', () => {
    const claim = () =>
      screen.getByRole('region', { name: 'At a glance' }).querySelectorAll('dd')[1]?.textContent;

    it('signed out: the queue cannot be asked, so no duration is claimed', async () => {
      const fetchMock = stubApi({});
      renderApp('/');
      await screen.findByRole('button', { name: 'Start Creating' });
      expect(document.body.textContent).not.toMatch(/minute/);
      expect(claim()).toBe('1 credit');
      expect(screen.getByRole('heading', { name: 'No studio booking' })).toBeTruthy();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/queue/'))).toBe(false);
    });

    it('signed in, a fast queue: the spec’s "under 10 minutes"', async () => {
      signIn();
      stubApi(
        waitEstimateAnswers({ training: { median: 14, wait: 0 }, generation: { median: 2 } }),
      );
      renderApp('/');
      expect(
        await screen.findByRole('heading', { name: 'Results in under 10 minutes' }),
      ).toBeTruthy();
      expect(claim()).toBe('< 10 min');
    });

    it('signed in, a long queue: the figure instead', async () => {
      signIn();
      stubApi(
        waitEstimateAnswers({
          training: { median: 20 * 60, wait: 40 * 60, ahead: 2 },
          generation: { median: 3 * 60 },
        }),
      );
      renderApp('/');
      expect(await screen.findByRole('heading', { name: 'Results in about 1 hour' })).toBeTruthy();
      expect(claim()).toBe('~1 h 3 min');
    });
  });
});
