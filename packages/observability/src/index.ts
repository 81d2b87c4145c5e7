export { createLogger, REDACTED_PATHS, type Logger, type LoggerOptions } from './logger.js';
export {
  BadMetricsRequest,
  startMetricsServer,
  type MetricsRoute,
  type MetricsServer,
} from './metrics-server.js';
export { currentRequestId, runInRequest } from './request-scope.js';
