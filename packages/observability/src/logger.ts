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
  /** Where lines go; default: standard output, buffered. */
  destination?: DestinationStream;
}

/** The one logger of every Studioshot process: JSON lines, with the redaction above. */
export function createLogger({ service, level, destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    // Buffered, asynchronous writes keep logging off the request path; pino flushes the buffer
    // when the process exits.
    destination ?? pinoDestination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
