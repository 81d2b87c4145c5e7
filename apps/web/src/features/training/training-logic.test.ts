import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../lib/storage';
import { trainingJob, userModel } from './testing';
import {
  announcementFor,
  bannerJob,
  barWidth,
  connectionState,
  createAnnouncementLog,
  dashboardBanner,
  defaultModelName,
  lowerOf,
  MODEL_NAME_MAX,
  detectChanges,
  failureToastMessage,
  mergeModels,
  shortId,
} from './training-logic';

// The time remaining is computed from measured durations: see features/queue/durations.test.ts.
describe('progress arithmetic (docs/spec/constants.md)', () => {
  it.each([
    [0, 5],
    [3, 5],
    [5, 5],
    [6, 6],
    [72, 72],
    [100, 100],
    [140, 100],
  ])('the bar is drawn at max(5, %i) = %i', (progress, width) => {
    expect(barWidth(progress)).toBe(width);
  });
});

describe('toasts', () => {
  it('failure: training failed: {error_message or Unknown error}', () => {
    expect(failureToastMessage('GPU out of memory')).toBe('training failed: GPU out of memory');
    expect(failureToastMessage(null)).toBe('training failed: Unknown error');
    expect(failureToastMessage('  ')).toBe('training failed: Unknown error');
  });

  it('announces a finished job once per storage, across log instances (tabs, reloads)', () => {
    const storage = createMemoryStorage();
    const done = trainingJob({ status: 'completed', progress: 100 });
    expect(announcementFor(done, createAnnouncementLog(storage))).toEqual({
      kind: 'success',
      message: 'Ada Portraits is ready! You can generate headshots now.',
    });
    expect(announcementFor(done, createAnnouncementLog(storage))).toBeNull();
    // A later failure of another job is its own announcement.
    const failed = trainingJob({ id: 'other', status: 'failed', error_message: 'Bad photos' });
    expect(announcementFor(failed, createAnnouncementLog(storage))).toEqual({
      kind: 'error',
      message: 'training failed: Bad photos',
    });
    expect(announcementFor(trainingJob(), createAnnouncementLog(storage))).toBeNull();
  });

  it('survives an unreadable log', () => {
    const storage = createMemoryStorage({ trainingAnnouncements: '{oops' });
    expect(createAnnouncementLog(storage).claim('a', 'completed')).toBe(true);
    expect(createAnnouncementLog(storage).has('a', 'completed')).toBe(true);
  });
});

describe('detectChanges', () => {
  it('reports only a seen job that became completed or failed', () => {
    const seen = new Map([
      ['a', 'training' as const],
      ['b', 'pending' as const],
      ['c', 'completed' as const],
      ['d', 'pending' as const],
    ]);
    const changes = detectChanges(seen, [
      trainingJob({ id: 'a', status: 'completed' }),
      trainingJob({ id: 'b', status: 'failed' }),
      trainingJob({ id: 'c', status: 'completed' }),
      trainingJob({ id: 'd', status: 'training' }),
      trainingJob({ id: 'new', status: 'completed' }),
    ]);
    expect(changes.map((c) => [c.job.id, c.from, c.to])).toEqual([
      ['a', 'training', 'completed'],
      ['b', 'pending', 'failed'],
    ]);
  });
});

describe('connectionState', () => {
  it.each([
    ['open', false, true, 'connected'],
    ['reconnecting', true, true, 'connected'],
    ['idle', true, true, 'connected'],
    ['reconnecting', false, true, 'reconnecting'],
    ['connecting', false, true, 'reconnecting'],
    ['stopped', false, true, 'offline'],
    ['open', true, false, 'offline'],
  ] as const)('realtime %s, poll ok %s, online %s: %s', (realtime, pollOk, online, expected) => {
    expect(connectionState({ realtime, pollOk, online })).toBe(expected);
  });
});

describe('bannerJob', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('prefers the newest job in progress', () => {
    const jobs = [
      trainingJob({ id: 'done', status: 'completed', completed_at: '2026-11-22T11:00:00.000Z' }),
      trainingJob({ id: 'run', status: 'training' }),
    ];
    expect(bannerJob(jobs, new Set(), now)?.id).toBe('run');
  });

  it('shows a recent finish, not an old one, and honours dismissals per status', () => {
    const recent = trainingJob({
      id: 'r',
      status: 'completed',
      completed_at: '2026-11-22T11:00:00.000Z',
    });
    expect(bannerJob([recent], new Set(), now)?.id).toBe('r');
    expect(bannerJob([recent], new Set(['r:completed']), now)).toBeNull();
    expect(bannerJob([recent], new Set(['r:training']), now)?.id).toBe('r');
    const old = { ...recent, completed_at: '2026-11-20T11:00:00.000Z' };
    expect(bannerJob([old], new Set(), now)).toBeNull();
    expect(bannerJob([], new Set(), now)).toBeNull();
  });
});

describe('mergeModels', () => {
  it('joins models with jobs by id; the job status and progress win; orphan jobs are listed', () => {
    const rows = mergeModels(
      [
        userModel({ id: 'm1', status: 'training', created_at: '2026-11-20T10:00:00.000Z' }),
        userModel({ id: 'm2', status: 'completed', created_at: '2026-11-19T10:00:00.000Z' }),
      ],
      [
        trainingJob({ id: 'm1', status: 'completed', progress: 100 }),
        trainingJob({
          id: 'j3',
          name: 'Fresh',
          status: 'pending',
          progress: 0,
          created_at: '2026-11-21T10:00:00.000Z',
        }),
      ],
    );
    expect(rows.map((r) => [r.id, r.status, r.progress])).toEqual([
      ['j3', 'pending', 0],
      ['m1', 'completed', 100],
      ['m2', 'completed', 100],
    ]);
    expect(rows[0]?.name).toBe('Fresh');
  });

  it('carries the failure reason', () => {
    const rows = mergeModels(
      [userModel({ id: 'm1', status: 'failed' })],
      [trainingJob({ id: 'm1', status: 'failed', error_message: 'No face found' })],
    );
    expect(rows[0]?.error_message).toBe('No face found');
  });
});

describe('dashboardBanner', () => {
  const row = (status: 'pending' | 'training' | 'completed' | 'failed') =>
    mergeModels([userModel({ id: status, status })], [])[0]!;
  it('training active while anything is in progress, else all ready', () => {
    expect(dashboardBanner([])).toBeNull();
    expect(dashboardBanner([row('completed'), row('pending')])).toEqual({
      kind: 'training',
      count: 1,
    });
    expect(dashboardBanner([row('completed'), row('failed')])).toEqual({
      kind: 'failed',
      count: 1,
    });
    expect(dashboardBanner([row('completed')])).toEqual({ kind: 'ready' });
  });
});

describe('names', () => {
  it('suggests a model name from the user and the day, so two models read apart', () => {
    const day = new Date('2026-11-27T12:00:00Z');
    expect(defaultModelName({ first_name: 'Ada', name: 'Ada Lovelace' }, day)).toBe(
      "Ada's Headshot Model, 27 Nov 2026",
    );
    expect(defaultModelName({ name: 'Charles Babbage' }, day)).toBe(
      "Charles' Headshot Model, 27 Nov 2026",
    );
    expect(defaultModelName({ email: 'x@example.com' }, day)).toBe(
      'My Headshot Model, 27 Nov 2026',
    );
    expect(defaultModelName(null, new Date('2026-12-01T12:00:00Z'))).toBe(
      'My Headshot Model, 1 Dec 2026',
    );
    expect(defaultModelName({ name: 'x'.repeat(200) }, day)).toHaveLength(MODEL_NAME_MAX);
  });

  it('shows the first 8 characters of an id', () => {
    expect(shortId('3a1f0c2e-8b4d-4c6e')).toBe('3a1f0c2e');
  });
});

describe('time remaining', () => {
  it('never goes up: the lower of the last shown and the new estimate', () => {
    const shown: (number | null)[] = [];
    let last: number | null = null;
    for (const estimate of [null, 3, 2, 1, 0, 1, null, 0]) {
      last = lowerOf(last, estimate);
      shown.push(last);
    }
    expect(shown).toEqual([null, 3, 2, 1, 0, 0, 0, 0]);
  });
});
