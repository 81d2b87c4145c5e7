/** Stub answers of the queue's wait-time estimate, keyed for stubApi. */
export function waitEstimateAnswers(
  figures: Partial<
    Record<'training' | 'generation', { median: number; wait?: number | null; ahead?: number }>
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
