import type { User } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FREE_SUBSCRIPTION, pricingAnswer } from '../features/payments/testing';
import { SLOT_NOT_RETURNED } from '../features/training/DeleteModelDialog';
import { JOB_ID, trainingJob, userModel } from '../features/training/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

const PAID: Partial<User> = {
  plan_type: 'professional',
  training_limit: 5,
  models_trained: 2,
  credits_balance: 10,
};
const OTHER_ID = '22222222-3333-4444-8555-666666666666';

/** The dashboard with two models, the first deletable as `remove` answers. */
function dashboard(remove: Handlers[string], extra: Handlers = {}) {
  signIn(PAID);
  let models = [
    userModel({ status: 'completed' }),
    userModel({ id: OTHER_ID, name: 'Second Portraits', status: 'completed' }),
  ];
  const deletes: string[] = [];
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...PAID }],
    'GET /api/v1/payments/subscription': () => [200, FREE_SUBSCRIPTION],
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    'GET /api/v1/upload/user-models': () => [200, { models }],
    'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
    'GET /api/v1/queue/user/status': () => [
      200,
      { pending_tasks: 0, running_tasks: 0, total_tasks: 0 },
    ],
    [`DELETE /api/v1/models/${JOB_ID}`]: (...args) => {
      deletes.push(JOB_ID);
      const answer = remove(...args);
      if (answer[0] === 200) models = models.filter((m) => m.id !== JOB_ID);
      return answer;
    },
    ...extra,
  });
  renderApp('/dashboard');
  return { fetchMock, deletes };
}

const modelsSection = () => screen.findByRole('region', { name: /Trained Models/ });
const modelItem = async (name: string) =>
  within(await modelsSection()).findByRole('article', { name });

describe('deleting a model from the dashboard', () => {
  it('asks first, saying the slot is not given back; Cancel deletes nothing and returns focus', async () => {
    const { deletes } = dashboard(() => [500, { detail: 'unused', code: 'internal_error' }]);
    const item = await modelItem('Ada Portraits');
    const button = within(item).getByRole('button', { name: 'Delete model Ada Portraits' });
    button.focus();
    fireEvent.click(button);

    const dialog = await screen.findByRole('dialog', { name: 'Delete Ada Portraits?' });
    expect(within(dialog).getByText(SLOT_NOT_RETURNED)).toBeTruthy();
    expect(within(dialog).getByText('every headshot generated with it')).toBeTruthy();
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(deletes).toEqual([]);
  });

  it('deletes on confirming: the model leaves the list, a toast says so, focus lands on the list', async () => {
    dashboard(() => [200, { id: JOB_ID, status: 'deleted', message: MESSAGES.modelDeleted }]);
    const item = await modelItem('Ada Portraits');
    fireEvent.click(within(item).getByRole('button', { name: 'Delete model Ada Portraits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ada Portraits?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete model' }));

    expect(await screen.findByText(MESSAGES.modelDeleted)).toBeTruthy();
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: /Trained Models/ })).queryByRole('article', {
          name: 'Ada Portraits',
        }),
      ).toBeNull(),
    );
    expect(await modelItem('Second Portraits')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: /Trained Models/ })),
    );
  });

  it('a training still stopping: the row says Deleting... until it is gone', async () => {
    dashboard(() => [202, { id: JOB_ID, status: 'deleting', message: MESSAGES.modelDeleting }], {
      'GET /api/v1/training/jobs': () => [200, { jobs: [trainingJob({ status: 'training' })] }],
    });
    const item = await modelItem('Ada Portraits');
    fireEvent.click(within(item).getByRole('button', { name: 'Delete model Ada Portraits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ada Portraits?' });
    expect(within(dialog).getByText('its training, which is stopped now')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete model' }));
    expect(await screen.findByText(MESSAGES.modelDeleting)).toBeTruthy();
    const row = await modelItem('Ada Portraits');
    expect(within(row).getByRole('status').textContent).toContain('Deleting...');
    expect(within(row).queryByRole('button', { name: /Delete model/ })).toBeNull();
  });

  it('a failure is said in the dialog, which stays open to try again', async () => {
    dashboard(() => [503, { detail: 'Service unavailable', code: 'service_unavailable' }]);
    const item = await modelItem('Ada Portraits');
    fireEvent.click(within(item).getByRole('button', { name: 'Delete model Ada Portraits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ada Portraits?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete model' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Service unavailable');
    expect(within(dialog).getByRole('button', { name: 'Delete model' })).toBeTruthy();
    expect(await modelItem('Ada Portraits')).toBeTruthy();
  });
});
