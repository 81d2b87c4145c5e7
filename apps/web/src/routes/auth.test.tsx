import { MESSAGES } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { publicEstimateAnswer } from '../features/queue/testing';
import { queryClient } from '../lib/query-client';
import { STORAGE_KEYS } from '../lib/storage';
import { authAnswer, renderApp, signIn, stubApi } from '../test/app-harness';
import { queueKeys } from '../features/queue/query-keys';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function openSignUp() {
  fireEvent.click(await screen.findByRole('button', { name: 'Create Account', pressed: false }));
  await screen.findByLabelText('Full name');
}

/** The form's own submit button (the mode toggle carries the same label). */
async function submitButton(formName: 'Sign in' | 'Create account') {
  const form = await screen.findByRole('form', { name: formName });
  return within(form).getByRole('button', {
    name: formName === 'Sign in' ? 'Sign In' : 'Create Account',
  });
}

async function signInWith(email: string, password: string) {
  await screen.findByLabelText('Email');
  fill('Email', email);
  fill('Password', password);
  fireEvent.click(await submitButton('Sign in'));
}

describe('/auth', () => {
  it('says how long results take now, from the public estimate, in both modes', async () => {
    stubApi(
      publicEstimateAnswer({
        training: { median: 20 * 60, wait: 40 * 60 },
        generation: { median: 180 },
      }),
    );
    renderApp('/auth');
    expect(await screen.findByText('Results in about 1 hour')).toBeTruthy();
    await openSignUp();
    expect(screen.getByText('Results in about 1 hour')).toBeTruthy();
  });

  it('states the size delivered, never 4K', async () => {
    stubApi({});
    renderApp('/auth');
    expect(await screen.findByText(/1024x1024 headshots/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\b4K\b/i);
  });

  it('promises no time while no worker is connected', async () => {
    const fetchMock = stubApi(
      publicEstimateAnswer({ training: { median: 14, wait: null }, generation: { median: 2 } }),
    );
    renderApp('/auth');
    await screen.findByLabelText('Email');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/estimate/public'))).toBe(
        true,
      ),
    );
    // The answer has been read once the query settles.
    await waitFor(() =>
      expect(queryClient.getQueryState(queueKeys.publicEstimate())?.status).toBe('success'),
    );
    expect(screen.queryByText(/^Results in/)).toBeNull();
  });

  it('shows the spec validation messages when creating an account', async () => {
    const fetchMock = stubApi({});
    renderApp('/auth');
    await openSignUp();

    fill('Email', 'ada@example.com');
    fill('Password', '12345');
    fill('Confirm password', '54321');
    fireEvent.click(await submitButton('Create account'));

    expect(await screen.findByText('Full name is required')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    fill('Password', '123456');
    fireEvent.click(await submitButton('Create account'));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/v1/auth/register', expect.anything());
  });

  it('signs up with name = full name, stores the session and goes on to the stored page', async () => {
    let sent: unknown;
    stubApi({
      'POST /api/v1/auth/register': ({ body }) => {
        sent = body;
        return [201, authAnswer({ name: 'Grace Hopper' })];
      },
    });
    window.localStorage.setItem(STORAGE_KEYS.authRedirect, '/upload');
    const router = renderApp('/auth?redirect=/credits');
    await openSignUp();

    fill('Full name', '  Grace Hopper ');
    fill('Email', 'grace@example.com');
    fill('Password', 'secret1');
    fill('Confirm password', 'secret1');
    fireEvent.click(await submitButton('Create account'));

    // The page the visitor was on their way to wins over ?redirect.
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(sent).toEqual({ email: 'grace@example.com', password: 'secret1', name: 'Grace Hopper' });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-1');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.user) ?? '{}')).toMatchObject({
      name: 'Grace Hopper',
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBeNull();
  });

  it('after login goes to the stored redirect', async () => {
    stubApi({ 'POST /api/v1/auth/login': () => [200, authAnswer()] });
    window.localStorage.setItem(STORAGE_KEYS.authRedirect, '/upload?step=2');
    const router = renderApp('/auth');

    await signInWith('ada@example.com', 'secret1');

    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe('/upload?step=2'),
    );
  });

  it('after login sends users with trained models to the dashboard', async () => {
    stubApi({ 'POST /api/v1/auth/login': () => [200, authAnswer({ models_trained: 1 })] });
    window.localStorage.setItem(STORAGE_KEYS.authRedirect, '/upload');
    const router = renderApp('/auth?redirect=/credits');

    await signInWith('ada@example.com', 'secret1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows the server detail, or the spec message when the answer lacks tokens', async () => {
    let answer: [number, unknown] = [401, { detail: MESSAGES.invalidCredentials, code: 'x' }];
    stubApi({ 'POST /api/v1/auth/login': () => answer });
    renderApp('/auth');

    await signInWith('ada@example.com', 'wrong-password');
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.invalidCredentials);

    answer = [200, { user: authAnswer().user }];
    fireEvent.click(await submitButton('Sign in'));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Login failed - no access token or user data received',
      ),
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('falls back to the spec message when the server gives no detail', async () => {
    stubApi({ 'POST /api/v1/auth/login': () => [500, {}] });
    renderApp('/auth');
    await signInWith('ada@example.com', 'secret1');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Authentication failed. Please try again.',
    );
  });

  it('sends signed-in visitors to ?redirect or the dashboard', async () => {
    signIn();
    stubApi({});
    const router = renderApp('/auth?redirect=/upload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('opens the reset modal at step 2 from a reset link and resets the password', async () => {
    let sent: unknown;
    stubApi({
      'POST /api/v1/auth/reset-password': ({ body }) => {
        sent = body;
        return [200, { message: MESSAGES.passwordResetDone }];
      },
    });
    const router = renderApp('/auth?reset_email=ada%40example.com&reset_token=tok-123');

    const dialog = await screen.findByRole('dialog', { name: 'Set a new password' });
    expect((within(dialog).getByLabelText('Reset code') as HTMLInputElement).value).toBe('tok-123');
    fireEvent.change(within(dialog).getByLabelText('New password'), {
      target: { value: 'brand-new' },
    });
    fireEvent.change(within(dialog).getByLabelText('Confirm new password'), {
      target: { value: 'brand-new' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));

    await waitFor(() =>
      expect(sent).toEqual({
        email: 'ada@example.com',
        reset_token: 'tok-123',
        new_password: 'brand-new',
      }),
    );
    expect(await screen.findByText(MESSAGES.passwordResetDone)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('requests a reset code and prefills it when the server returns one', async () => {
    stubApi({
      'POST /api/v1/auth/forgot-password': () => [
        200,
        { message: MESSAGES.forgotPasswordSent, reset_token: 'code-42' },
      ],
    });
    renderApp('/auth');
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reset your password' });
    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Reset Code' }));

    expect(await within(dialog).findByText(MESSAGES.forgotPasswordSent)).toBeTruthy();
    expect((within(dialog).getByLabelText('Reset code') as HTMLInputElement).value).toBe('code-42');
  });

  it('shows the reset fallback message when the request fails without detail', async () => {
    stubApi({ 'POST /api/v1/auth/forgot-password': () => [500, {}] });
    renderApp('/auth');
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Reset Code' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to send reset email',
    );
  });
});
