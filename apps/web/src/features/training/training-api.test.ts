import { describe, expect, it } from 'vitest';
import { normalizeStatus, toTrainingJob, toTrainingJobs, toUserModels } from './training-api';

describe('training answers', () => {
  it('accepts an array or {jobs}, newest first, and drops entries without an id', () => {
    const a = { id: 'a', status: 'training', created_at: '2026-11-20T10:00:00Z' };
    const b = { id: 'b', status: 'completed', created_at: '2026-11-21T10:00:00Z' };
    expect(toTrainingJobs([a, b, { status: 'pending' }]).map((j) => j.id)).toEqual(['b', 'a']);
    expect(toTrainingJobs({ jobs: [a] }).map((j) => j.id)).toEqual(['a']);
    expect(toTrainingJobs({ nothing: true })).toEqual([]);
  });

  it('reads progress or progress_percentage, name or model_name, and the spec statuses', () => {
    const job = toTrainingJob({
      id: 'x',
      status: 'running',
      progress_percentage: 37.6,
      model_name: 'Me',
    });
    expect(job).toMatchObject({
      id: 'x',
      training_id: 'x',
      status: 'training',
      progress: 38,
      name: 'Me',
      model_name: 'Me',
      training_photos: 0,
      error_message: null,
    });
    expect(toTrainingJob({ id: 'y', status: 'completed', progress: 80 })?.progress).toBe(100);
    expect(toTrainingJob({ id: 'z', progress: 250 })?.progress).toBe(100);
    expect(toTrainingJob({ id: 'z', progress: 250 })?.status).toBe('pending');
    expect(toTrainingJob('nonsense')).toBeNull();
  });

  it.each([
    ['pending', 'pending'],
    ['queued', 'pending'],
    ['training', 'training'],
    ['running', 'training'],
    ['completed', 'completed'],
    ['failed', 'failed'],
    ['cancelled', 'failed'],
    [undefined, 'pending'],
  ])('status %s reads as %s', (raw, expected) => {
    expect(normalizeStatus(raw)).toBe(expected);
  });

  it('reads the model list, defaulting the trigger word to person', () => {
    const models = toUserModels({
      models: [
        {
          id: 'm1',
          name: 'One',
          model_type: 'lora',
          status: 'completed',
          created_at: '2026-11-20',
        },
        { id: 'm2', name: '', status: 'training', trigger_word: 'ada', created_at: '2026-11-21' },
      ],
    });
    expect(models.map((m) => [m.id, m.name, m.status, m.trigger_word])).toEqual([
      ['m2', 'Untitled model', 'training', 'ada'],
      ['m1', 'One', 'completed', 'person'],
    ]);
  });
});
