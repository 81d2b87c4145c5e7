import type { RequestHandler } from 'express';
import type { Histogram } from 'prom-client';

/** The label of a request no declared route answered (a 404, a static file): never its path. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * Times each request into `histogram`, labelled by the route pattern that answered it (the
 * router's mount path and the route's declared path), so a label never carries an id or a token
 * from a URL and the series stay few. Read when the answer is sent, after routing has run.
 */
export function requestMetrics(
  histogram: Histogram<'method' | 'route' | 'status_code'>,
): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = req.route as { path: unknown } | undefined;
      histogram.observe(
        {
          method: req.method,
          route: route ? req.baseUrl + String(route.path) : UNMATCHED_ROUTE,
          status_code: res.statusCode,
        },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
