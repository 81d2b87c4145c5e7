import { destination as pinoDestination, pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  // Buffered, asynchronous writes keep logging off the request path; pino flushes the buffer
  // when the process exits.
  const destination = pinoDestination({ dest: 1, sync: false, minLength: 4096 });
  return pino(
    {
      level,
      base: { service: 'api' },
      // Never log credentials, even by accident.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.new_password',
          '*.refresh_token',
          '*.reset_token',
          '*.access_token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
