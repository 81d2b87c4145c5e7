import { destination as pinoDestination, pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Paths never written to a log, in every process: credentials a request, a job or an engine line
 * could carry by accident.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.new_password',
  '*.refresh_token',
  '*.reset_token',
  '*.access_token',
];

export interface LoggerOptions {
  /** The process's role, on every line (`api`, `worker`). */
  service: string;
  level: string;
  /**
   * Bytes gathered before a write to standard output. Buffering keeps logging off a busy API's
   * request path; a worker logs little and its last lines matter when it is killed, so it sets 0.
   */
  bufferBytes?: number;
  /** Where lines go instead of standard output (tests). */
  destination?: DestinationStream;
}

/** The one logger of every Studioshot process: JSON lines, with the redaction above. */
export function createLogger({
  service,
  level,
  bufferBytes = 4096,
  destination,
}: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    // Asynchronous writes; pino flushes what is buffered when the process exits.
    destination ?? pinoDestination({ dest: 1, sync: false, minLength: bufferBytes }),
  );
}
