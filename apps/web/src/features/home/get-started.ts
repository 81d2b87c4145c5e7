import { isSessionExpired, type ApiClient } from '../../lib/api-client';

interface Job {
  id?: unknown;
  status?: unknown;
}

function listFrom(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (typeof body === 'object' && body !== null) {
    const inner = (body as Record<string, unknown>)[key];
    if (Array.isArray(inner)) return inner;
  }
  return [];
}

/**
 * Where Get Started leads a signed-in user (product spec, Home): by training jobs, then by
 * uploaded models; any failure leads to /pricing. Null when the session just expired, because
 * the API client is already taking the user to /auth.
 */
export async function getStartedTarget(api: Pick<ApiClient, 'get'>): Promise<string | null> {
  try {
    const jobs = listFrom(await api.get('/api/v1/training/jobs'), 'jobs') as Job[];
    const running = jobs.find(
      (job) => job.status === 'running' || job.status === 'pending' || job.status === 'training',
    );
    if (running && (typeof running.id === 'string' || typeof running.id === 'number')) {
      return `/training/${encodeURIComponent(String(running.id))}`;
    }
    if (jobs.some((job) => job.status === 'completed')) return '/generate';
    if (jobs.length > 0) return '/pricing';

    const models = listFrom(await api.get('/api/v1/upload/user-models'), 'models');
    return models.length > 0 ? '/generate' : '/dashboard';
  } catch (error) {
    if (isSessionExpired(error)) return null;
    return '/pricing';
  }
}
