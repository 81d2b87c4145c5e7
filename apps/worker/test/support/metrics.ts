import type { WorkerMetrics } from '../../src/worker-metrics.js';

/** One series' value as /metrics would show it (a histogram's `_count` included), or undefined. */
export async function metricValue(
  metrics: WorkerMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const all = await metrics.registry.getMetricsAsJSON();
  for (const metric of all) {
    for (const value of metric.values as { metricName?: string; labels: object; value: number }[]) {
      const series = value.metricName ?? metric.name;
      const same = Object.entries(labels).every(
        ([key, wanted]) => String((value.labels as Record<string, unknown>)[key]) === wanted,
      );
      if (series === name && same) return value.value;
    }
  }
  return undefined;
}
