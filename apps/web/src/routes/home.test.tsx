import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { publicEstimateAnswer } from '../features/queue/testing';
import { queryClient } from '../lib/query-client';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi } from '../test/app-harness';
import { queueKeys } from '../features/queue/query-keys';

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
    // The sections below the fold come after the first paint.
    for (const style of ['Executive', 'Creative', 'Business']) {
      expect(await screen.findByRole('heading', { name: style })).toBeTruthy();
    }
  });

  it('states the size every headshot is delivered at, and never promises 4K', async () => {
    stubApi({});
    renderApp('/');
    await screen.findByRole('button', { name: 'Start Creating' });
    for (const style of ['Executive', 'Creative', 'Business'])
      await screen.findByRole('heading', { name: style });
    expect(screen.getAllByText(/1024x1024/).length).toBeGreaterThanOrEqual(2);
    expect(document.body.textContent).not.toMatch(/\b4K\b/i);
    // The page's own description, as search engines and link previews show it.
    const page = readFileSync(path.resolve(__dirname, '../../index.html'), 'utf8');
    expect(page).not.toMatch(/\b4K\b/i);
    expect(page).toMatch(/1024x1024/);
    // Prices change in the pricing catalogue only; a static page cannot follow them.
    expect(page).not.toMatch(/\$\d/);
  });

  it('Get Started while signed out remembers /pricing and opens Create Account', async () => {
    stubApi({});
    const router = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Get Started' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('?mode=signup');
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

  describe('the time to results: the public estimate, in the spec’s words where true', () => {
    const claim = () =>
      screen.getByRole('region', { name: 'At a glance' }).querySelectorAll('dd')[1]?.textContent;
    const estimateCalls = (fetchMock: ReturnType<typeof stubApi>) =>
      fetchMock.mock.calls.filter(([url]) => String(url).includes('/queue/'));

    it('signed out, a fast queue: the spec’s "under 10 minutes", asked without a token', async () => {
      const fetchMock = stubApi(
        publicEstimateAnswer({ training: { median: 14 }, generation: { median: 2 } }),
      );
      renderApp('/');
      // First paint: the claim that needs no estimate.
      await screen.findByRole('button', { name: 'Start Creating' });
      expect(claim()).toBe('1 credit');
      expect(
        await screen.findByRole('heading', { name: 'Results in under 10 minutes' }),
      ).toBeTruthy();
      expect(claim()).toBe('< 10 min');
      const calls = estimateCalls(fetchMock);
      expect(calls.map(([url]) => String(url))).toEqual(['/api/v1/queue/estimate/public']);
      expect(new Headers(calls[0]![1]?.headers).has('Authorization')).toBe(false);
    });

    it('nothing measured yet: the spec’s words, not an invented figure', async () => {
      stubApi(publicEstimateAnswer({ training: { median: null }, generation: { median: null } }));
      renderApp('/');
      expect(
        await screen.findByRole('heading', { name: 'Results in under 10 minutes' }),
      ).toBeTruthy();
    });

    it('a long queue: the figure instead', async () => {
      stubApi(
        publicEstimateAnswer({
          training: { median: 20 * 60, wait: 40 * 60 },
          generation: { median: 3 * 60 },
        }),
      );
      renderApp('/');
      expect(await screen.findByRole('heading', { name: 'Results in about 1 hour' })).toBeTruthy();
      expect(claim()).toBe('~1 h 3 min');
    });

    it.each([
      [
        'no worker is connected',
        publicEstimateAnswer({ training: { median: 14, wait: null }, generation: { median: 2 } }),
      ],
      [
        'the estimate fails',
        {
          'GET /api/v1/queue/estimate/public': (): [number, unknown] => [
            503,
            { detail: 'Down', code: 'service_unavailable' },
          ],
        },
      ],
    ])('%s: no duration is claimed', async (_, handlers) => {
      const fetchMock = stubApi(handlers);
      renderApp('/');
      await screen.findByRole('button', { name: 'Start Creating' });
      await waitFor(() => expect(estimateCalls(fetchMock)).toHaveLength(1));
      // The answer has been read once the query settles; nothing changed.
      await waitFor(() =>
        expect(queryClient.getQueryState(queueKeys.publicEstimate())?.status).not.toBe('pending'),
      );
      expect(document.body.textContent).not.toMatch(/minute/);
      expect(claim()).toBe('1 credit');
      expect(screen.getByRole('heading', { name: 'No studio booking' })).toBeTruthy();
    });

    it('signed in: the same public estimate', async () => {
      signIn();
      const fetchMock = stubApi(
        publicEstimateAnswer({ training: { median: 14 }, generation: { median: 2 } }),
      );
      renderApp('/');
      expect(
        await screen.findByRole('heading', { name: 'Results in under 10 minutes' }),
      ).toBeTruthy();
      expect(estimateCalls(fetchMock).map(([url]) => String(url))).toEqual([
        '/api/v1/queue/estimate/public',
      ]);
    });
  });
});
