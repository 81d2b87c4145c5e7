/** Stub answers of the queue's wait-time estimate, keyed for stubApi. */
export function waitEstimateAnswers(
  figures: Partial<
    Record<
      'training' | 'generation',
      { median: number | null; wait?: number | null; ahead?: number }
    >
  >,
) {
  const handlers: Record<string, () => [number, unknown]> = {};
  for (const [task, figure] of Object.entries(figures)) {
    const wait = figure.wait === undefined ? 0 : figure.wait;
    handlers[`GET /api/v1/queue/estimate/wait-time/${task}/normal`] = () => [
      200,
      {
        task_type: task,
        priority: 'normal',
        jobs_ahead: figure.ahead ?? 0,
        workers: wait === null ? 0 : 1,
        median_duration_seconds: figure.median,
        estimated_wait_seconds: wait,
      },
    ];
  }
  return handlers;
}

/**
 * A stub answer of the public estimate (GET /api/v1/queue/estimate/public), keyed for stubApi:
 * each kind of work's measured median (null: none yet) and wait (null: no worker connected).
 */
export function publicEstimateAnswer(
  figures: Record<'training' | 'generation', { median: number | null; wait?: number | null }>,
) {
  const work = ({ median, wait = 0 }: { median: number | null; wait?: number | null }) => ({
    median_duration_seconds: median,
    sample_size: median === null ? 0 : 7,
    estimated_wait_seconds: wait,
    expected_seconds: wait === null || median === null ? null : wait + median,
    worker_connected: wait !== null,
  });
  return {
    'GET /api/v1/queue/estimate/public': (): [number, unknown] => [
      200,
      {
        engine_kind: 'studio',
        training: work(figures.training),
        generation: work(figures.generation),
        max_age_seconds: 60,
      },
    ],
  };
}
