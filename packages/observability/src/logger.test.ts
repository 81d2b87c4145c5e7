import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('names its service and never writes a credential, however deep in a line it sits', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 'worker', level: 'info', destination });
    logger.child({ requestId: 'req-12345678' }).info(
      {
        req: { headers: { authorization: 'Bearer abc.def', cookie: 'sid=1', accept: '*/*' } },
        body: { email: 'a@example.com', password: 'hunter22', refresh_token: 'r' },
        job: { access_token: 'x', reset_token: 'y', new_password: 'z' },
      },
      'a job',
    );
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      service: 'worker',
      requestId: 'req-12345678',
      msg: 'a job',
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' } },
      body: { email: 'a@example.com', password: '[redacted]', refresh_token: '[redacted]' },
      job: { access_token: '[redacted]', reset_token: '[redacted]', new_password: '[redacted]' },
    });
    expect(JSON.stringify(line)).not.toMatch(/hunter22|abc\.def|sid=1/);
  });
});
