import { describe, expect, it, vi } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { getStartedTarget } from './get-started';

function apiAnswering(answers: Record<string, unknown>) {
  return {
    get: vi.fn(async (path: string) => {
      const answer = answers[path];
      if (answer instanceof Error) throw answer;
      if (answer === undefined) throw new ApiError({ status: 404, code: 'not_found' });
      return answer;
    }),
  } as unknown as Parameters<typeof getStartedTarget>[0];
}

const JOBS = '/api/v1/training/jobs';
const MODELS = '/api/v1/upload/user-models';

describe('getStartedTarget', () => {
  it('goes to the live status of a running, pending or training job', async () => {
    expect(
      await getStartedTarget(apiAnswering({ [JOBS]: [{ id: 'j9', status: 'training' }] })),
    ).toBe('/training/j9');
    expect(
      await getStartedTarget(apiAnswering({ [JOBS]: [{ id: 'j1', status: 'running' }] })),
    ).toBe('/training/j1');
    expect(
      await getStartedTarget(
        apiAnswering({
          [JOBS]: {
            jobs: [
              { id: 'c', status: 'completed' },
              { id: 7, status: 'pending' },
            ],
          },
        }),
      ),
    ).toBe('/training/7');
  });

  it('goes to /generate when a job completed', async () => {
    const api = apiAnswering({
      [JOBS]: [
        { id: 'a', status: 'failed' },
        { id: 'b', status: 'completed' },
      ],
    });
    expect(await getStartedTarget(api)).toBe('/generate');
  });

  it('goes to /pricing when jobs exist but none completed', async () => {
    expect(await getStartedTarget(apiAnswering({ [JOBS]: [{ id: 'a', status: 'failed' }] }))).toBe(
      '/pricing',
    );
  });

  it('checks uploaded models when there are no jobs', async () => {
    expect(
      await getStartedTarget(apiAnswering({ [JOBS]: [], [MODELS]: { models: [{ id: 'm' }] } })),
    ).toBe('/generate');
    expect(await getStartedTarget(apiAnswering({ [JOBS]: { jobs: [] }, [MODELS]: [] }))).toBe(
      '/dashboard',
    );
  });

  it('goes to /pricing on any error, including the endpoints not existing yet', async () => {
    expect(await getStartedTarget(apiAnswering({}))).toBe('/pricing');
    expect(await getStartedTarget(apiAnswering({ [JOBS]: [] }))).toBe('/pricing');
  });

  it('stays put when the session expired (the client is already redirecting)', async () => {
    const expired = new ApiError({ status: 401, code: CLIENT_ERROR_CODES.sessionExpired });
    expect(await getStartedTarget(apiAnswering({ [JOBS]: expired }))).toBeNull();
  });
});
