import { SAME_PERSON_ADVICE, type User } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BLURRY_ADVICE,
  BLURRY_CHECKS,
  PASSING_CHECKS,
  STRANGER_CHECKS,
  stubUploads,
  uploadedPhoto,
  type FakeUploadAnswer,
} from '../features/upload/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

const SESSION = '22222222-2222-4222-8222-222222222222';
const READY_USER: Partial<User> = {
  plan_type: 'starter',
  training_limit: 1,
  models_trained: 0,
  gender: 'female',
  age: 34,
};

function photos(count: number, prefix = 'selfie'): File[] {
  return Array.from(
    { length: count },
    (_, i) =>
      new File([`jpeg-${prefix}-${i}`], `${prefix}-${i + 1}.jpg`, {
        type: 'image/jpeg',
        lastModified: i + 1,
      }),
  );
}

function openUpload(user: Partial<User>, extra: Handlers = {}, path = '/upload') {
  signIn(user);
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...user }],
    'GET /api/v1/upload/sessions': () => [200, { photo_sets: [] }],
    ...extra,
  });
  const router = renderApp(path);
  return { router, fetchMock };
}

/** A fake upload API: photos land pending and their checks finish on the next status poll. */
function fakeUploadServer(
  options: { blurry?: string[]; reject?: Record<string, FakeUploadAnswer> } = {},
) {
  const stored: ReturnType<typeof uploadedPhoto>[] = [];
  const calls: string[] = [];
  let n = 0;
  let polls = 0;
  const sent = stubUploads((request) => {
    const name = request.file?.name ?? '';
    calls.push(`upload ${name}`);
    const rejection = options.reject?.[name];
    if (rejection) return rejection;
    n += 1;
    const photo = uploadedPhoto(n, { filename: name });
    stored.push(photo);
    return [201, photo];
  });
  const handlers: Handlers = {
    'POST /api/v1/upload/create-session': ({ body }) => {
      calls.push(`create ${JSON.stringify(body)}`);
      return [201, { session_id: SESSION, expires_at: '2030-01-01T00:00:00.000Z' }];
    },
    [`GET /api/v1/upload/session/${SESSION}/status`]: () => {
      calls.push('status');
      polls += 1;
      // The worker finishes every pending check by the time the page asks again.
      for (const [i, photo] of stored.entries()) {
        if (photo.check_status !== 'pending') continue;
        const blurry = options.blurry?.includes(photo.filename) ?? false;
        stored[i] = {
          ...photo,
          check_status: 'done',
          usable: !blurry,
          checks: blurry ? BLURRY_CHECKS : PASSING_CHECKS,
          advice: blurry ? [BLURRY_ADVICE] : [],
        } as typeof photo;
      }
      return [
        200,
        {
          session_id: SESSION,
          session_type: 'training',
          status: 'uploading',
          training_id: null,
          expected_files: stored.length,
          expires_at: '2030-01-01T00:00:00.000Z',
          uploaded_files: stored.length,
          usable_files: stored.filter((p) => p.usable === true).length,
          checks_pending: stored.filter((p) => p.check_status === 'pending').length,
          min_photos: 10,
          max_photos: 20,
          // Like the API, every answer signs the thumbnail addresses afresh.
          photos: stored.map((p) => ({ ...p, thumbnail_url: `${p.thumbnail_url}&poll=${polls}` })),
        },
      ];
    },
    [`POST /api/v1/upload/complete/${SESSION}`]: () => {
      calls.push('complete');
      const usable = stored.filter((p) => p.usable === true).length;
      return [
        200,
        {
          uploaded_files: stored.length,
          usable_files: usable,
          message: `Upload complete: ${usable} photos are ready for training.`,
        },
      ];
    },
  };
  for (let i = 1; i <= 20; i++) {
    const id = uploadedPhoto(i).id;
    handlers[`DELETE /api/v1/upload/photos/${id}`] = () => {
      calls.push(`delete ${id}`);
      const index = stored.findIndex((p) => p.id === id);
      if (index >= 0) stored.splice(index, 1);
      return [200, {}];
    };
  }
  return { handlers, calls, sent, stored };
}

const picker = () => screen.findByLabelText('Choose photos');

async function pick(files: File[]) {
  fireEvent.change(await picker(), { target: { files } });
}

describe('/upload eligibility', () => {
  it('sends the free plan to /pricing', async () => {
    const { router } = openUpload({ plan_type: 'free', training_limit: 0 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'), {
      timeout: 5000,
    });
    expect(await screen.findByText(MESSAGES.planRequired)).toBeTruthy();
  });

  it('sends a paid plan without trainings to /pricing', async () => {
    const { router } = openUpload({ ...READY_USER, training_limit: 0 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
  });

  it('lets a free account that bought a training upload', async () => {
    openUpload({ ...READY_USER, plan_type: 'free', training_limit: 1 });
    expect(await screen.findByLabelText('Choose photos')).toBeTruthy();
    expect(screen.getByText('0/1')).toBeTruthy();
  });

  it('goes to /pricing when the profile cannot be loaded', async () => {
    signIn(READY_USER);
    stubApi({
      'GET /api/v1/users/profile': () => [500, { detail: 'boom', code: 'internal_error' }],
    });
    const router = renderApp('/upload');
    // Server faults are retried twice (1 s, 2 s) before the page gives up.
    await waitFor(
      async () => {
        await vi.advanceTimersByTimeAsync(500);
        expect(router.state.location.pathname).toBe('/pricing');
      },
      { timeout: 5000 },
    );
    expect(await screen.findByText(MESSAGES.profileLoadFailed)).toBeTruthy();
  });

  it('sends a visitor without a token to /auth and remembers /upload', async () => {
    const router = renderApp('/upload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem('authRedirect')).toBe('/upload');
  });

  it('shows the training-limit modal when every slot is used', async () => {
    openUpload({ ...READY_USER, training_limit: 2, models_trained: 2 });
    const dialog = await screen.findByRole('dialog', { name: 'Train more models' });
    expect(within(dialog).getByText(/You have used 2 of 2/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Maybe later' }));
    expect(screen.getByRole('heading', { name: 'Training limit reached' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'See options' }));
    expect(await screen.findByRole('dialog', { name: 'Train more models' })).toBeTruthy();
  });

  it('the training-limit modal sells trainings: $25, $45 (40% saving), and the upgrades at the /pricing prices', async () => {
    const { router } = openUpload({
      ...READY_USER,
      plan_type: 'starter',
      training_limit: 1,
      models_trained: 1,
    });
    const modal = await screen.findByRole('dialog', { name: 'Train more models' });
    expect(within(modal).getByText('$25')).toBeTruthy();
    expect(within(modal).getByText('$45')).toBeTruthy();
    expect(within(modal).getByText('40% saving')).toBeTruthy();
    // The catalogue's plans, as /pricing lists them (not the spec copy's $49 and $99).
    expect(within(modal).getByText('$19.99')).toBeTruthy();
    expect(within(modal).getByText('5 models, 8 credits a month')).toBeTruthy();
    expect(within(modal).getByText('$39.99')).toBeTruthy();
    expect(within(modal).getByText('10 models, 16 credits a month')).toBeTruthy();
    expect(
      within(modal).getByText(
        'Today you pay only the difference for the rest of your billing period.',
      ),
    ).toBeTruthy();

    fireEvent.click(within(modal).getByRole('button', { name: 'Buy 3 Trainings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=training&quantity=3&price=45');
    expect(JSON.parse(window.localStorage.getItem('trainingPurchaseIntent') ?? '{}')).toMatchObject(
      { type: 'additional_training', currentPlan: 'starter' },
    );
  });

  it('the modal upgrade stores the target plan and goes to /payment?type=upgrade&from=plan', async () => {
    const { router } = openUpload({
      ...READY_USER,
      plan_type: 'professional',
      training_limit: 5,
      models_trained: 5,
    });
    const modal = await screen.findByRole('dialog', { name: 'Train more models' });
    expect(within(modal).queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
    fireEvent.click(within(modal).getByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=upgrade&from=professional');
    expect(JSON.parse(window.localStorage.getItem('selectedPlan') ?? '{}')).toEqual({
      planId: 'premium',
      type: 'subscription',
      planName: 'Premium',
      price: 3999,
      credits: 16,
    });
  });

  it('asks for gender (required) and age (optional, 18-100) before uploading', async () => {
    const patches: unknown[] = [];
    openUpload(
      { ...READY_USER, gender: null, age: null },
      {
        'PATCH /api/v1/users/profile': ({ body }) => {
          patches.push(body);
          return [200, { ...TEST_USER, ...READY_USER, ...(body as object) }];
        },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Set up your profile' });
    const save = within(dialog).getByRole('button', { name: 'Save and continue' });
    fireEvent.click(save);
    expect(await within(dialog).findByText('Please choose male or female')).toBeTruthy();

    fireEvent.click(within(dialog).getByLabelText('Male'));
    fireEvent.change(within(dialog).getByLabelText('Age (optional)'), { target: { value: '17' } });
    fireEvent.click(save);
    expect(await within(dialog).findByText('Age must be between 18 and 100')).toBeTruthy();
    expect(patches).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Age (optional)'), { target: { value: '41' } });
    fireEvent.click(save);
    await waitFor(() => expect(patches).toEqual([{ gender: 'male', age: 41 }]));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Set up your profile' })).toBeNull(),
    );
    expect(screen.getByRole('heading', { name: 'Upload your photos' })).toBeTruthy();
  });

  it('shows the server message when the profile update is refused', async () => {
    openUpload(
      { ...READY_USER, gender: null, age: null },
      {
        'PATCH /api/v1/users/profile': () => [
          422,
          { detail: 'Age must be between 18 and 100', code: 'validation_error' },
        ],
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Set up your profile' });
    fireEvent.click(within(dialog).getByLabelText('Female'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and continue' }));
    expect(await within(dialog).findByText('Age must be between 18 and 100')).toBeTruthy();
  });

  it('asks once: with the gender saved and the optional age empty, no modal opens', async () => {
    openUpload({ ...READY_USER, age: null });
    expect(await screen.findByRole('heading', { name: 'No photos yet' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Set up your profile' })).toBeNull();
  });
});

describe('/upload flow', () => {
  it('validates picks with the spec messages', async () => {
    openUpload(READY_USER);
    await pick([
      new File(['x'], 'notes.txt', { type: 'text/plain' }),
      new File(['x'], 'anim.gif', { type: 'image/gif' }),
    ]);
    // The toasts say it once; the list beside the drop zone keeps each file's reason.
    const notAdded = await screen.findByRole('region', { name: '2 files were not added' });
    expect(
      within(notAdded)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'notes.txt: Please only upload image files',
      'anim.gif: Invalid file type. Only JPEG, PNG, and WebP are allowed.',
    ]);
    // The header shows one notification at a time, the newest: the pick's last refusal.
    const toasts = screen.getByRole('region', { name: /notifications/i });
    expect(
      within(toasts).getByText('Invalid file type. Only JPEG, PNG, and WebP are allowed.'),
    ).toBeTruthy();

    await pick(photos(9));
    const queue = await screen.findByRole('region', { name: 'Ready to upload' });
    expect(within(queue).getAllByRole('article')).toHaveLength(9);
    expect(within(queue).getByText('Add 1 more photo to reach the 10-photo minimum.')).toBeTruthy();
    fireEvent.click(within(queue).getByRole('button', { name: 'Upload 9 photos' }));
    expect((await within(queue).findByRole('alert')).textContent).toBe(
      'Minimum 10 photos required for training',
    );

    await pick(photos(12, 'more'));
    await waitFor(() => expect(within(queue).getAllByRole('article')).toHaveLength(20));
    expect((await screen.findAllByText('Maximum 20 photos allowed')).length).toBeGreaterThan(0);
    // Refusals add up until dismissed: the two of the first pick and the one past 20 of this one.
    const list = screen.getByRole('region', { name: '3 files were not added' });
    expect(within(list).getByText('more-12.jpg')).toBeTruthy();
    expect(within(list).getByText('notes.txt')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: /not added/ })).toBeNull();
    // Focus does not fall to the page: the set is full, so it goes to the drop zone.
    expect(document.activeElement?.contains(await picker())).toBe(true);

    // Removing before upload only drops the photo from the queue.
    fireEvent.click(within(queue).getByRole('button', { name: 'Remove selfie-1.jpg' }));
    expect(within(queue).getAllByRole('article')).toHaveLength(19);
  });

  it('uploads one by one, shows each photo’s checks, removes one, and starts training', async () => {
    const server = fakeUploadServer({ blurry: ['selfie-3.jpg'] });
    const { router } = openUpload(READY_USER, server.handlers);
    expect(await screen.findByRole('heading', { name: 'No photos yet' })).toBeTruthy();
    expect(screen.getByText('0/1')).toBeTruthy();

    await pick(photos(11));
    const queue = await screen.findByRole('region', { name: 'Ready to upload' });
    fireEvent.click(within(queue).getByRole('button', { name: 'Upload 11 photos' }));

    const uploaded = await screen.findByRole(
      'region',
      { name: 'Uploaded photos' },
      { timeout: 5000 },
    );
    await waitFor(() => expect(within(uploaded).getAllByRole('article')).toHaveLength(11));
    expect(server.calls.slice(0, 2)).toEqual([
      `create {"expected_files":11,"session_type":"training"}`,
      'upload selfie-1.jpg',
    ]);
    expect(server.sent.map((s) => s.url)).toEqual(
      Array.from({ length: 11 }, () => `/api/v1/upload/file/${SESSION}`),
    );
    expect(router.state.location.search).toBe(`?session=${SESSION}`);

    // The checks finish on the next poll (every 1.5 s while any is pending).
    await vi.advanceTimersByTimeAsync(1600);
    const blurry = await within(uploaded).findByRole('article', { name: 'selfie-3.jpg' });
    await within(blurry).findByText('Needs attention');
    const failedChecks = within(blurry).getByRole('list', { name: 'Failed checks' });
    expect(failedChecks.textContent).toBe('Blurry');
    expect(within(blurry).getByText(BLURRY_ADVICE)).toBeTruthy();
    const good = within(uploaded).getByRole('article', { name: 'selfie-1.jpg' });
    expect(within(good).getByText('Usable')).toBeTruthy();
    // The first signed address is kept, so polling does not reload every thumbnail.
    const thumbnail = within(good).getByRole('img', { name: 'Thumbnail of selfie-1.jpg' });
    expect(thumbnail.getAttribute('src')).toBe(uploadedPhoto(1).thumbnail_url);

    const summary = screen.getByRole('region', { name: 'Your photo set' });
    expect(within(summary).getByText('10')).toBeTruthy();
    expect(within(summary).getByText('Your set is ready for training.')).toBeTruthy();

    const complete = await screen.findByRole('region', { name: 'Upload Complete' });
    expect(within(complete).getByText(/10 of 11 photos are ready for training/)).toBeTruthy();

    // After upload, remove calls DELETE.
    fireEvent.click(within(blurry).getByRole('button', { name: 'Remove selfie-3.jpg' }));
    await waitFor(() =>
      expect(within(uploaded).queryByRole('article', { name: 'selfie-3.jpg' })).toBeNull(),
    );
    expect(server.calls).toContain(`delete ${uploadedPhoto(3).id}`);
    await waitFor(() =>
      expect(within(complete).getByText(/10 of 10 photos are ready for training/)).toBeTruthy(),
    );

    fireEvent.click(within(complete).getByRole('button', { name: 'Start Training' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/training/start'));
    expect(router.state.location.search).toBe(`?session=${SESSION}`);
    expect(router.state.location.state).toEqual({ sessionId: SESSION });
    // Completed before leaving; /training/start then only reads the session's status.
    const afterComplete = server.calls.slice(server.calls.lastIndexOf('complete') + 1);
    expect(server.calls).toContain('complete');
    expect(afterComplete.every((call) => call === 'status')).toBe(true);
  });

  it('retries a failing file 3 times (1 s, 2 s) and keeps it for Retry; a refused one keeps its reason, is not retried, and can be removed', async () => {
    const reject: Record<string, FakeUploadAnswer> = {
      'selfie-2.jpg': [503, { detail: 'Service unavailable', code: 'service_unavailable' }],
      'selfie-4.jpg': [409, { detail: MESSAGES.duplicatePhoto, code: 'conflict' }],
    };
    const server = fakeUploadServer({ reject });
    openUpload(READY_USER, server.handlers);
    await pick(photos(11));
    const queue = await screen.findByRole('region', { name: 'Ready to upload' });
    fireEvent.click(within(queue).getByRole('button', { name: 'Upload 11 photos' }));
    await act(() => vi.advanceTimersByTimeAsync(3500));

    await waitFor(() =>
      expect(within(queue).getByText('2 photos could not be uploaded.')).toBeTruthy(),
    );
    expect(server.calls.filter((c) => c === 'upload selfie-2.jpg')).toHaveLength(3);
    expect(server.calls.filter((c) => c === 'upload selfie-4.jpg')).toHaveLength(1);

    // The server refused selfie-4 for good: its reason stays, with Remove; no preview, no Retry.
    const refused = within(queue).getByRole('article', { name: 'selfie-4.jpg' });
    expect(refused.dataset.uploadState).toBe('rejected');
    expect(refused.textContent).toContain(`Refused: ${MESSAGES.duplicatePhoto}`);
    expect(within(refused).queryByRole('img')).toBeNull();
    // selfie-2 failed on a server fault: another attempt may work, so Retry counts only it.
    const failed = within(queue).getByRole('article', { name: 'selfie-2.jpg' });
    expect(failed.dataset.uploadState).toBe('failed');
    const retry = within(queue).getByRole('button', { name: 'Retry 1 photo' });

    // Retry sends only selfie-2 (it works now; 9 uploaded + 1 make the 10 needed); selfie-4 is
    // not sent again.
    server.calls.length = 0;
    delete reject['selfie-2.jpg'];
    fireEvent.click(retry);
    await waitFor(() => expect(server.calls).toContain('upload selfie-2.jpg'));
    await waitFor(() =>
      expect(within(queue).queryByRole('article', { name: 'selfie-2.jpg' })).toBeNull(),
    );
    expect(server.calls.filter((c) => c.startsWith('upload'))).toEqual(['upload selfie-2.jpg']);
    expect(within(queue).getByRole('heading', { name: 'Not uploaded' })).toBeTruthy();
    expect(within(queue).queryByRole('button', { name: /^(Retry|Upload) / })).toBeNull();
    expect(within(queue).getByText('1 photo could not be uploaded.')).toBeTruthy();

    // Remove takes it away for good.
    const dropZonePicker = await picker();
    const remove = within(refused).getByRole('button', { name: 'Remove selfie-4.jpg' });
    remove.focus();
    fireEvent.click(remove);
    // Its button went with it: the focus goes to the drop zone in the same task, never to the
    // page, not even until the next frame.
    expect(screen.queryByRole('region', { name: 'Not uploaded' })).toBeNull();
    const focused = document.activeElement;
    expect(focused).not.toBe(document.body);
    expect(focused?.contains(dropZonePicker)).toBe(true);
  });

  it('runs one upload at a time, shows its progress, and cancels it', async () => {
    const server = fakeUploadServer();
    stubUploads(() => 'hang');
    openUpload(READY_USER, server.handlers);
    await pick(photos(10));
    const queue = await screen.findByRole('region', { name: 'Ready to upload' });
    const upload = within(queue).getByRole('button', { name: 'Upload 10 photos' });
    fireEvent.click(upload);
    // While it runs, the button becomes Cancel: a second start is not offered.
    fireEvent.click(upload);
    expect(within(queue).queryByRole('button', { name: 'Upload 10 photos' })).toBeNull();
    expect(await screen.findByRole('progressbar', { name: 'Upload progress' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Uploading selfie-1.jpg' })).toBeTruthy();
    fireEvent.click(await within(queue).findByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText('Upload cancelled')).toBeTruthy();
    expect(await within(queue).findByRole('button', { name: 'Upload 10 photos' })).toBeTruthy();
    expect(server.calls.filter((c) => c.startsWith('create'))).toHaveLength(1);
  });

  it('sends the plan-less to /pricing when the server refuses the session', async () => {
    const { router } = openUpload(READY_USER, {
      'POST /api/v1/upload/create-session': () => [
        403,
        { detail: MESSAGES.planRequired, code: 'forbidden' },
      ],
    });
    await pick(photos(10));
    const queue = await screen.findByRole('region', { name: 'Ready to upload' });
    fireEvent.click(within(queue).getByRole('button', { name: 'Upload 10 photos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
  });

  it('resumes a session from the URL and offers a new one once it has expired', async () => {
    openUpload(
      READY_USER,
      {
        [`GET /api/v1/upload/session/${SESSION}/status`]: () => [
          200,
          {
            session_id: SESSION,
            session_type: 'training',
            status: 'expired',
            training_id: null,
            expected_files: 10,
            expires_at: '2020-01-01T00:00:00.000Z',
            uploaded_files: 0,
            usable_files: 0,
            checks_pending: 0,
            min_photos: 10,
            max_photos: 20,
            photos: [],
          },
        ],
      },
      `/upload?session=${SESSION}`,
    );
    expect(await screen.findByText(MESSAGES.sessionExpired)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start a new upload' }));
    await waitFor(() => expect(screen.queryByText(MESSAGES.sessionExpired)).toBeNull());
  });
});

describe('/upload picks up the set on the server', () => {
  it('opened without ?session (a reload, the dashboard), it shows the set the user left off with', async () => {
    const server = fakeUploadServer();
    for (let n = 1; n <= 12; n++) server.stored.push(uploadedPhoto(n));
    const { router } = openUpload(READY_USER, {
      ...server.handlers,
      'GET /api/v1/upload/sessions': () => [
        200,
        {
          photo_sets: [
            {
              id: SESSION,
              status: 'uploading',
              created_at: '2026-11-22T12:00:00.000Z',
              photo_count: 12,
              photos_purged_at: null,
              photos_purge_due_at: null,
              model: null,
            },
          ],
        },
      ],
    });
    const complete = await screen.findByRole('region', { name: 'Upload Complete' });
    expect(within(complete).getByText(/12 of 12 photos are ready for training/)).toBeTruthy();
    expect(router.state.location.search).toBe(`?session=${SESSION}`);
    expect(screen.queryByRole('heading', { name: 'No photos yet' })).toBeNull();
  });
});

describe('/upload: a photo the same-person check flagged', () => {
  /** Ten checked photos on the server, the tenth flagged by the same-person check alone. */
  function flaggedSet(confirmAnswer: () => [number, unknown]) {
    const server = fakeUploadServer();
    for (let n = 1; n <= 10; n++) {
      server.stored.push({
        ...uploadedPhoto(n),
        check_status: 'done',
        usable: n !== 10,
        checks: n === 10 ? STRANGER_CHECKS : PASSING_CHECKS,
        advice: n === 10 ? [SAME_PERSON_ADVICE] : [],
      } as ReturnType<typeof uploadedPhoto>);
    }
    const confirms: string[] = [];
    const flaggedId = uploadedPhoto(10).id;
    server.handlers[`POST /api/v1/upload/photos/${flaggedId}/confirm-same-person`] = () => {
      confirms.push(flaggedId);
      const answer = confirmAnswer();
      if (answer[0] === 200) server.stored[9] = answer[1] as ReturnType<typeof uploadedPhoto>;
      return answer;
    };
    openUpload(READY_USER, server.handlers, `/upload?session=${SESSION}`);
    return { server, confirms, flaggedId };
  }

  it('warns, never drops it, and "This is me" makes it count', async () => {
    const { confirms, flaggedId } = flaggedSet(() => [
      200,
      {
        ...uploadedPhoto(10),
        check_status: 'done',
        usable: true,
        checks: STRANGER_CHECKS,
        advice: [SAME_PERSON_ADVICE],
        same_person_confirmed_at: '2026-11-28T05:00:00.000Z',
      },
    ]);
    const uploaded = await screen.findByRole('region', { name: 'Uploaded photos' });
    const flagged = await within(uploaded).findByRole('article', { name: 'photo-10.jpg' });
    // Listed with the others, as a warning the user can answer, not as a failure.
    await within(flagged).findByText('Needs attention');
    expect(within(flagged).queryByRole('list', { name: 'Failed checks' })).toBeNull();
    const warning = within(flagged).getByRole('group', { name: 'Same-person check' });
    expect(warning.textContent).toContain('Matches 2 of your 9 other photos.');
    expect(warning.textContent).toContain(SAME_PERSON_ADVICE);
    const summary = screen.getByRole('region', { name: 'Your photo set' });
    expect(within(summary).getByText('9')).toBeTruthy();

    fireEvent.click(within(warning).getByRole('button', { name: 'This is me' }));
    await within(flagged).findByText('You confirmed this is you.');
    expect(confirms).toEqual([flaggedId]);
    expect(within(flagged).getByText('Usable')).toBeTruthy();
    expect(within(flagged).queryByRole('button', { name: 'This is me' })).toBeNull();
    expect(
      await screen.findByText('Thanks for confirming: this photo now counts toward your set.'),
    ).toBeTruthy();
    await waitFor(() => expect(within(summary).getByText('10')).toBeTruthy());
    const complete = await screen.findByRole('region', { name: 'Upload Complete' });
    expect(within(complete).getByText(/10 of 10 photos are ready for training/)).toBeTruthy();
  });

  it('keeps the warning and says why when the confirmation is refused', async () => {
    flaggedSet(() => [409, { detail: MESSAGES.photoNotFlagged, code: 'conflict' }]);
    const uploaded = await screen.findByRole('region', { name: 'Uploaded photos' });
    const flagged = await within(uploaded).findByRole('article', { name: 'photo-10.jpg' });
    const warning = await within(flagged).findByRole('group', { name: 'Same-person check' });
    fireEvent.click(within(warning).getByRole('button', { name: 'This is me' }));
    expect(await screen.findByText(MESSAGES.photoNotFlagged)).toBeTruthy();
    expect(within(flagged).getByRole('button', { name: 'This is me' })).toBeTruthy();
    expect(within(flagged).getByText('Needs attention')).toBeTruthy();
  });
});
