import { MESSAGES, type PhotoSet } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelKeepsWorking } from '../features/settings/DeletePhotoSetDialog';
import { retentionLine } from '../features/settings/PhotoSetsList';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

// Noon UTC: the same day in every time zone a test machine may run in.
const TRAINED: PhotoSet = {
  id: '44444444-4444-4444-8444-444444444444',
  status: 'completed',
  created_at: '2026-11-02T12:00:00.000Z',
  photo_count: 12,
  photos_purged_at: null,
  photos_purge_due_at: '2026-12-04T12:00:00.000Z',
  model: {
    id: '55555555-5555-4555-8555-555555555555',
    name: 'Studio Portraits',
    status: 'completed',
  },
};
const PURGED: PhotoSet = {
  id: '66666666-6666-4666-8666-666666666666',
  status: 'completed',
  created_at: '2026-08-03T12:00:00.000Z',
  photo_count: 0,
  photos_purged_at: '2026-10-05T12:00:00.000Z',
  photos_purge_due_at: null,
  model: {
    id: '77777777-7777-4777-8777-777777777777',
    name: 'Autumn Look',
    status: 'completed',
  },
};
const TRAINING: PhotoSet = {
  id: '88888888-8888-4888-8888-888888888888',
  status: 'completed',
  created_at: '2026-11-20T12:00:00.000Z',
  photo_count: 11,
  photos_purged_at: null,
  photos_purge_due_at: null,
  model: {
    id: '99999999-9999-4999-8999-999999999999',
    name: 'New Look',
    status: 'training',
  },
};
const UNTRAINED: PhotoSet = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  status: 'expired',
  created_at: '2026-11-24T12:00:00.000Z',
  photo_count: 1,
  photos_purged_at: null,
  photos_purge_due_at: null,
  model: null,
};

const privacy = () =>
  [
    200,
    { photo_retention_days: 30, export_link_minutes: 15, export_kept_hours: 24, sign_in_days: 30 },
  ] as [number, unknown];

/** /settings with these photo sets; `remove` answers deleting the trained one. */
function settings(sets: PhotoSet[], extra: Handlers = {}) {
  signIn();
  let listed = sets;
  const deletes: string[] = [];
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, TEST_USER],
    'GET /api/v1/users/sessions': () => [200, { sessions: [] }],
    'GET /api/v1/users/exports': () => [200, { exports: [] }],
    'GET /api/v1/privacy': privacy,
    'GET /api/v1/upload/sessions': () => [200, { photo_sets: listed }],
    [`DELETE /api/v1/upload/sessions/${TRAINED.id}`]: () => {
      deletes.push(TRAINED.id);
      listed = listed.filter((set) => set.id !== TRAINED.id);
      return [200, { id: TRAINED.id, status: 'deleted', message: MESSAGES.photoSetDeleted }];
    },
    ...extra,
  });
  renderApp('/settings');
  return {
    fetchMock,
    deletes,
    setListed: (next: PhotoSet[]) => {
      listed = next;
    },
  };
}

const photoList = () => screen.findByRole('list', { name: 'Your photos' });
const setItem = async (name: string) => within(await photoList()).findByRole('listitem', { name });
const deleteButton = (item: HTMLElement) =>
  within(item).getByRole('button', { name: /^Delete photos uploaded 2 Nov 2026/ });

describe("/settings: the photo sets in 'Your data'", () => {
  it('lists each set: photos held or purged, the model, and when the photos go', async () => {
    settings([UNTRAINED, TRAINING, TRAINED, PURGED]);
    const region = await screen.findByRole('region', { name: 'Your data' });
    expect(within(region).getByRole('heading', { name: 'Your photos', level: 3 })).toBeTruthy();
    expect(await within(region).findByText(/automatically 30 days after the/)).toBeTruthy();
    const items = within(await photoList()).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Uploaded 24 Nov 2026'),
      expect.stringContaining('Uploaded 20 Nov 2026'),
      expect.stringContaining('Uploaded 2 Nov 2026'),
      expect.stringContaining('Uploaded 3 Aug 2026'),
    ]);

    const trained = await setItem('Uploaded 2 Nov 2026');
    expect(within(trained).getByText('12 photos held')).toBeTruthy();
    expect(within(trained).getByText('Studio Portraits')).toBeTruthy();
    expect(within(trained).getByText('Deleted automatically on 4 Dec 2026')).toBeTruthy();
    expect(deleteButton(trained)).toBeTruthy();

    // Purged by retention: the date it happened, and nothing left to delete.
    const purged = await setItem('Uploaded 3 Aug 2026');
    expect(within(purged).getByText('Photos deleted')).toBeTruthy();
    expect(within(purged).getByText('Deleted automatically on 5 Oct 2026')).toBeTruthy();
    expect(within(purged).queryByRole('button')).toBeNull();

    const training = await setItem('Uploaded 20 Nov 2026');
    expect(within(training).getByText(/\(training\)/)).toBeTruthy();
    expect(within(training).getByText('Kept while the model trains')).toBeTruthy();

    const untrained = await setItem('Uploaded 24 Nov 2026');
    expect(within(untrained).getByText('1 photo held')).toBeTruthy();
    expect(within(untrained).getByText('No model trained from these photos')).toBeTruthy();
    expect(
      within(untrained).getByText('Not used for a model: kept until you delete them'),
    ).toBeTruthy();
  });

  it('offers Train from these photos on a set that trained nothing yet, and only there', async () => {
    const waiting: PhotoSet = {
      ...UNTRAINED,
      id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
      status: 'completed',
      created_at: '2026-11-25T12:00:00.000Z',
      photo_count: 12,
    };
    const open: PhotoSet = {
      ...waiting,
      id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
      status: 'uploading',
      created_at: '2026-11-26T12:00:00.000Z',
    };
    settings([open, waiting, UNTRAINED, TRAINING, TRAINED]);
    const train = (item: HTMLElement) =>
      within(item).queryByRole('link', { name: /^Train from these photos/ });
    expect(train(await setItem('Uploaded 25 Nov 2026'))?.getAttribute('href')).toBe(
      `/training/start?session=${waiting.id}`,
    );
    expect(train(await setItem('Uploaded 26 Nov 2026'))?.getAttribute('href')).toBe(
      `/upload?session=${open.id}`,
    );
    // Expired, training or trained: nothing to train from.
    for (const name of ['Uploaded 24 Nov 2026', 'Uploaded 20 Nov 2026', 'Uploaded 2 Nov 2026']) {
      expect(train(await setItem(name))).toBeNull();
    }
  });

  it('says when there are no photos, with the way to upload some', async () => {
    settings([]);
    const region = await screen.findByRole('region', { name: 'Your data' });
    expect(await within(region).findByText(/You have no uploaded photos\./)).toBeTruthy();
    expect(within(region).getByRole('link', { name: 'Upload photos' }).getAttribute('href')).toBe(
      '/upload',
    );
  });

  it('shows a loading state, then an error that can be retried', async () => {
    let fail = true;
    settings([], {
      'GET /api/v1/upload/sessions': () =>
        fail
          ? [500, { detail: MESSAGES.internal, code: 'internal_error' }]
          : [200, { photo_sets: [TRAINED] }],
    });
    const region = await screen.findByRole('region', { name: 'Your data' });
    expect(within(region).getByText('Loading your photos...')).toBeTruthy();
    const alert = await within(region).findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain(MESSAGES.internal);
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await setItem('Uploaded 2 Nov 2026')).toBeTruthy();
  });

  it('asks first, saying what goes and that the model keeps working; Cancel deletes nothing', async () => {
    const { deletes } = settings([TRAINED, PURGED]);
    const button = deleteButton(await setItem('Uploaded 2 Nov 2026'));
    button.focus();
    fireEvent.click(button);

    const dialog = await screen.findByRole('dialog', { name: 'Delete these photos?' });
    expect(within(dialog).getByText(/the photos you uploaded on 2 Nov 2026/)).toBeTruthy();
    expect(within(dialog).getByText('12 photos, as you uploaded them')).toBeTruthy();
    expect(
      within(dialog).getByText('every copy we made of them: resized versions and thumbnails'),
    ).toBeTruthy();
    expect(within(dialog).getByText(modelKeepsWorking('Studio Portraits'))).toBeTruthy();
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(deletes).toEqual([]);
  });

  it('deletes on confirming: the set leaves the list, a toast says so, focus lands on the list', async () => {
    const { deletes } = settings([TRAINED, PURGED]);
    fireEvent.click(deleteButton(await setItem('Uploaded 2 Nov 2026')));
    const dialog = await screen.findByRole('dialog', { name: 'Delete these photos?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete photos' }));

    expect(await screen.findByText(MESSAGES.photoSetDeleted)).toBeTruthy();
    expect(deletes).toEqual([TRAINED.id]);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Your photos' })).queryByRole('listitem', {
          name: 'Uploaded 2 Nov 2026',
        }),
      ).toBeNull(),
    );
    expect(await setItem('Uploaded 3 Aug 2026')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Your photos', level: 3 }),
      ),
    );
  });

  it("a training still reading the photos: the server's refusal is shown, and the set stays", async () => {
    const { deletes } = settings([TRAINED], {
      [`DELETE /api/v1/upload/sessions/${TRAINED.id}`]: () => {
        deletes.push(TRAINED.id);
        return [409, { detail: MESSAGES.photoSetInTraining, code: 'conflict' }];
      },
    });
    const button = deleteButton(await setItem('Uploaded 2 Nov 2026'));
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Delete these photos?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete photos' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      MESSAGES.photoSetInTraining,
    );
    expect(deletes).toEqual([TRAINED.id]);
    // Still there to try again, or to leave.
    expect(within(dialog).getByRole('button', { name: 'Delete photos' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(await setItem('Uploaded 2 Nov 2026')).toBeTruthy();
  });

  it('a deletion still running: the row says Deleting... until the list no longer has it', async () => {
    const { setListed } = settings([TRAINED, PURGED], {
      [`DELETE /api/v1/upload/sessions/${TRAINED.id}`]: () => [
        202,
        { id: TRAINED.id, status: 'deleting', message: MESSAGES.photoSetDeleting },
      ],
    });
    fireEvent.click(deleteButton(await setItem('Uploaded 2 Nov 2026')));
    const dialog = await screen.findByRole('dialog', { name: 'Delete these photos?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete photos' }));
    expect(await screen.findByText(MESSAGES.photoSetDeleting)).toBeTruthy();
    const row = await setItem('Uploaded 2 Nov 2026');
    expect(within(row).getByRole('status').textContent).toContain('Deleting...');
    expect(within(row).queryByRole('button')).toBeNull();

    setListed([PURGED]);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Your photos' })).queryByRole('listitem', {
          name: 'Uploaded 2 Nov 2026',
        }),
      ).toBeNull(),
    );
  });

  it('words each state of a set in one line', () => {
    expect(retentionLine(TRAINED)).toBe('Deleted automatically on 4 Dec 2026');
    expect(retentionLine(PURGED)).toBe('Deleted automatically on 5 Oct 2026');
    expect(retentionLine(TRAINING)).toBe('Kept while the model trains');
    expect(retentionLine(UNTRAINED)).toBe('Not used for a model: kept until you delete them');
    // Completed in the format generation rebuilds from its photos: kept until that first use.
    expect(retentionLine({ ...TRAINED, photos_purge_due_at: null })).toBe(
      'Kept until you first generate headshots with this model',
    );
  });
});
