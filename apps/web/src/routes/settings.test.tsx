import { MESSAGES, type DataExport, type SignInSession } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

const CURRENT: SignInSession = {
  id: '11111111-1111-4111-8111-111111111111',
  device: 'Chrome on macOS',
  user_agent: 'Mozilla/5.0 Chrome',
  ip_address: '203.0.113.7',
  created_at: '2026-11-20T09:00:00.000Z',
  last_used_at: '2026-11-25T09:00:00.000Z',
  current: true,
};
const PHONE: SignInSession = {
  ...CURRENT,
  id: '22222222-2222-4222-8222-222222222222',
  device: 'Safari on iOS',
  ip_address: '198.51.100.4',
  current: false,
};

function exportOf(overrides: Partial<DataExport> = {}): DataExport {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    status: 'queued',
    progress: 0,
    created_at: '2026-11-25T10:00:00.000Z',
    completed_at: null,
    expires_at: null,
    size_bytes: null,
    download_url: null,
    download_expires_at: null,
    error_message: null,
    ...overrides,
  };
}

const privacy = () =>
  [
    200,
    { photo_retention_days: 30, export_link_minutes: 15, export_kept_hours: 24, sign_in_days: 30 },
  ] as [number, unknown];

describe('/settings', () => {
  it('shows the profile, the sign-ins with this device marked, the export and the deletion list', async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT, PHONE] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
    });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
    expect((screen.getByLabelText('Full name') as HTMLInputElement).value).toBe('Ada Lovelace');
    expect(screen.getByText(TEST_USER.email)).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Active sign-ins' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This device')).toBeTruthy();
    expect(within(rows[1]!).getByText(/198\.51\.100\.4/)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Download my data' })).toBeTruthy();
    const deletion = screen.getByRole('region', { name: 'Delete account' });
    expect(within(deletion).getByText('Every headshot you generated')).toBeTruthy();
    expect(within(deletion).getByText(/kept for accounting/)).toBeTruthy();
  });

  it('edits the gender and the optional age asked before the first upload', async () => {
    signIn();
    const patches: unknown[] = [];
    stubApi({
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, gender: 'female', age: null }],
      'GET /api/v1/users/sessions': () => [200, { sessions: [] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
      'PATCH /api/v1/users/profile': ({ body }) => {
        patches.push(body);
        return [200, { ...TEST_USER, ...(body as object) }];
      },
    });
    renderApp('/settings');
    const styling = await screen.findByRole('region', { name: 'Headshot styling' });
    expect((within(styling).getByLabelText('Female') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(styling).getByLabelText('Male'));
    fireEvent.change(within(styling).getByLabelText('Age (optional)'), { target: { value: '44' } });
    fireEvent.click(within(styling).getByRole('button', { name: 'Save styling' }));
    await waitFor(() => expect(patches).toEqual([{ gender: 'male', age: 44 }]));
    expect(await within(styling).findByText('Styling saved')).toBeTruthy();
  });

  it('says so when the profile cannot be loaded, and tries again', async () => {
    signIn();
    let fail = true;
    stubApi({
      'GET /api/v1/users/profile': () =>
        fail ? [500, { detail: MESSAGES.internal, code: 'internal_error' }] : [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
    });
    renderApp('/settings');
    expect(
      await screen.findByRole('heading', { name: 'Settings unavailable' }, { timeout: 5000 }),
    ).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
  });

  it('checks a password change before sending it, and shows what the server says', async () => {
    signIn();
    const sent: unknown[] = [];
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
      'POST /api/v1/users/change-password': ({ body }) => {
        sent.push(body);
        return [403, { detail: MESSAGES.currentPasswordWrong, code: 'forbidden' }];
      },
    });
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Change password' });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'abc' } });
    fireEvent.change(within(form).getByLabelText('Confirm new password'), {
      target: { value: 'abd' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(within(form).getByText(MESSAGES.currentPasswordRequired)).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Current password'), {
      target: { value: 'wrong one' },
    });
    fireEvent.change(within(form).getByLabelText('New password'), {
      target: { value: 'brand new' },
    });
    fireEvent.change(within(form).getByLabelText('Confirm new password'), {
      target: { value: 'brand new' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText(MESSAGES.currentPasswordWrong)).toBeTruthy();
    expect(sent).toEqual([{ current_password: 'wrong one', new_password: 'brand new' }]);
  });

  it('follows an export from queued to ready, polling, then offers the link', async () => {
    signIn();
    let state = exportOf();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT] }],
      'GET /api/v1/users/exports': () => [200, { exports: [state] }],
      'POST /api/v1/users/exports': () => [202, state],
    });
    renderApp('/settings');
    expect(await screen.findByText('Preparing your download... 0%')).toBeTruthy();
    state = exportOf({ status: 'running', progress: 40 });
    expect(
      await screen.findByText('Preparing your download... 40%', {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Preparing your download' })).toBeTruthy();
    state = exportOf({
      status: 'completed',
      progress: 100,
      size_bytes: 2_500_000,
      completed_at: '2026-11-25T10:01:00.000Z',
      expires_at: '2026-11-26T10:01:00.000Z',
      download_url: `/api/v1/users/exports/${state.id}/download?token=abc`,
    });
    const link = await screen.findByRole('link', { name: 'Download zip' }, { timeout: 4000 });
    expect(link.getAttribute('href')).toBe(`/api/v1/users/exports/${state.id}/download?token=abc`);
    expect(screen.getByText(/Your data is ready \(2\.4 MB\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Prepare a new download' })).toBeTruthy();
  });

  it('signs out everywhere after confirming, and leaves for /auth', async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT, PHONE] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
      'DELETE /api/v1/users/sessions': () => [
        200,
        { message: MESSAGES.signedOutEverywhere, signed_out: 2 },
      ],
    });
    const router = renderApp('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('deletes the account with the password, then follows the deletion on its public page', async () => {
    signIn();
    const deletion = {
      deletion_id: '44444444-4444-4444-8444-444444444444',
      status: 'deleting',
      steps_done: 1,
      steps_total: 4,
      message: 'Deleting your photos',
    };
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/users/sessions': () => [200, { sessions: [CURRENT] }],
      'GET /api/v1/users/exports': () => [200, { exports: [] }],
      'DELETE /api/v1/users/me': ({ body, headers }) =>
        headers.get('Authorization') === 'Bearer stored-access' &&
        (body as { password: string }).password === 'right one'
          ? [202, deletion]
          : [403, { detail: 'That password is not right.', code: 'forbidden' }],
      [`GET /api/v1/users/deletions/${deletion.deletion_id}`]: () => [200, deletion],
      'GET /api/v1/privacy': privacy,
    });
    const router = renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Delete account' });
    const submit = within(form).getByRole('button', { name: 'Delete my account permanently' });
    fireEvent.click(submit);
    expect(await within(form).findByText('Enter your password to confirm')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Your password, to confirm'), {
      target: { value: 'wrong' },
    });
    fireEvent.click(submit);
    // Refused: back on the settings page, still signed in, with the reason.
    expect(await screen.findByText('That password is not right.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/settings');
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('stored-access');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText('Your password, to confirm')),
    );
    fireEvent.change(screen.getByLabelText('Your password, to confirm'), {
      target: { value: 'right one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account permanently' }));
    const progress = await screen.findByRole('progressbar', { name: 'Account deletion' });
    expect(progress.getAttribute('aria-valuetext')).toBe('1 of 4 steps');
    expect(screen.getByRole('heading', { name: 'Deleting your account...' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account-deleted');
    expect(router.state.location.search).toBe(`?id=${deletion.deletion_id}`);
    expect(screen.getByText('Deleting your photos')).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});

describe('/privacy', () => {
  it("states the server's retention numbers plainly, signed out too", async () => {
    stubApi({ 'GET /api/v1/privacy': privacy });
    renderApp('/privacy');
    expect(
      await screen.findByRole('heading', { name: 'Your face, your data', level: 1 }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('30').length).toBeGreaterThanOrEqual(3));
    expect(screen.getByText('Headshots: until you delete them')).toBeTruthy();
    expect(screen.getByText(/stay, because accounting and tax law/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe(
      '/auth?redirect=/settings',
    );
  });

  it('says so when the numbers cannot be loaded', async () => {
    stubApi({});
    renderApp('/privacy');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
