// One server resource, one owner: /upload and /training/start read an upload session through
// one hook, so both pages share one cache entry and cannot disagree about it.
import type { User } from '@studioshot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppRouter } from '../app/AppRouter';
import { routes } from '../app/router';
import { restoreSession } from '../features/auth/session-store';
import { uploadKeys } from '../features/upload/query-keys';
import { PASSING_CHECKS, uploadedPhoto } from '../features/upload/testing';
import { queryClient } from '../lib/query-client';
import { signIn, stubApi, TEST_USER } from '../test/app-harness';

const SESSION = '33333333-3333-4333-8333-333333333333';
const READY_USER: Partial<User> = {
  plan_type: 'starter',
  training_limit: 1,
  models_trained: 0,
  gender: 'female',
  age: 34,
};

/** Twelve checked, usable photos in a set still open for uploads, until it is completed. */
function sessionServer() {
  let status: 'uploading' | 'completed' = 'uploading';
  const photos = Array.from({ length: 12 }, (_, i) =>
    uploadedPhoto(i + 1, { check_status: 'done', usable: true, checks: PASSING_CHECKS }),
  );
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...READY_USER }],
    'GET /api/v1/upload/sessions': () => [200, { photo_sets: [] }],
    [`GET /api/v1/upload/session/${SESSION}/status`]: () => {
      return [
        200,
        {
          session_id: SESSION,
          session_type: 'training',
          status,
          training_id: null,
          expected_files: 12,
          expires_at: '2030-01-01T00:00:00.000Z',
          uploaded_files: 12,
          usable_files: 12,
          checks_pending: 0,
          min_photos: 10,
          max_photos: 20,
          photos,
        },
      ];
    },
    [`POST /api/v1/upload/complete/${SESSION}`]: () => {
      status = 'completed';
      return [
        200,
        {
          uploaded_files: 12,
          usable_files: 12,
          message: 'Upload complete: 12 photos are ready for training.',
        },
      ];
    },
  });
  return { fetchMock };
}

/** Both pages at once, each in its own router, in one React root over the app's query client. */
function openBothPages() {
  restoreSession();
  const upload = createMemoryRouter(routes, { initialEntries: [`/upload?session=${SESSION}`] });
  const start = createMemoryRouter(routes, {
    initialEntries: [`/training/start?session=${SESSION}`],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <div data-testid="upload-page">
        <AppRouter router={upload} />
      </div>
      <div data-testid="start-page">
        <AppRouter router={start} />
      </div>
    </QueryClientProvider>,
  );
  return {
    upload: { router: upload, view: within(screen.getByTestId('upload-page')) },
    start: { router: start, view: within(screen.getByTestId('start-page')) },
  };
}

/** Every cached query that names the session. */
function sessionEntries() {
  return queryClient
    .getQueryCache()
    .findAll()
    .filter((query) => JSON.stringify(query.queryKey).includes(SESSION))
    .map((query) => query.queryKey);
}

describe('an upload session shown on /upload and /training/start', () => {
  it('has one cache entry, and both pages follow its change', async () => {
    signIn(READY_USER);
    const server = sessionServer();
    const { upload, start } = openBothPages();

    // The set is still open: /upload offers to start training, /training/start asks to finish.
    const complete = await upload.view.findByRole('region', { name: 'Upload Complete' });
    expect(within(complete).getByText(/12 of 12 photos are ready for training/)).toBeTruthy();
    expect(
      await start.view.findByRole('status', { name: 'Finish your upload first' }),
    ).toBeTruthy();
    expect(sessionEntries()).toEqual([uploadKeys.session(SESSION)]);

    // /upload completes the set; /training/start, which asked nothing, shows the name form.
    fireEvent.click(within(complete).getByRole('button', { name: 'Start Training' }));
    const nameForm = await start.view.findByRole('region', { name: 'Name your model' });
    expect(within(nameForm).getByText(/12 photos are ready for training\./)).toBeTruthy();
    expect(start.view.queryByRole('status', { name: 'Finish your upload first' })).toBeNull();

    // /upload went on to /training/start as well: both pages show the same, completed set.
    await waitFor(() => expect(upload.router.state.location.pathname).toBe('/training/start'));
    expect(await upload.view.findByRole('region', { name: 'Name your model' })).toBeTruthy();
    expect(sessionEntries()).toEqual([uploadKeys.session(SESSION)]);
    expect(queryClient.getQueryData(uploadKeys.session(SESSION))).toMatchObject({
      status: 'completed',
    });
    expect(server.fetchMock).toHaveBeenCalledWith(
      `/api/v1/upload/complete/${SESSION}`,
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
