import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
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
  });
}
