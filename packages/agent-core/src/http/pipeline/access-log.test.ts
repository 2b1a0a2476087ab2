import type { IncomingMessage, ServerResponse } from 'node:http';

import request from 'supertest';

import type { Logger, LoggerLevel } from '../../toolkit/interfaces/logger';
import { accessLogStep, redactUrl } from './access-log';

/** A server answering 204 to everything, with the access-log step first. */
function logged(logger: Logger, level?: LoggerLevel) {
  const step = accessLogStep(logger, level);
  return (incoming: IncomingMessage, response: ServerResponse) => {
    step?.(incoming, response);
    response.statusCode = 204;
    response.end();
  };
}

describe('access log', () => {
  it('redacts secret-looking query parameters', () => {
    expect(redactUrl('/forest/authentication/callback?code=abc&state=%7B%7D&x=1')).toBe(
      '/forest/authentication/callback?code=***&state=***&x=1',
    );
    expect(redactUrl('/forest/orders')).toBe('/forest/orders');
  });

  it('logs one line per request with status and never the token', async () => {
    const lines: string[] = [];
    const app = logged((_level, message) => lines.push(message));
    await request(app)
      .get('/forest/orders?timezone=UTC&token=abc')
      .set('Authorization', 'Bearer xyz');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[204\] GET \/forest\/orders\?timezone=UTC&token=\*\*\* - [\d.]+ms$/,
    );
    expect(lines[0]).not.toContain('xyz');
  });

  it('does no logging work above Info, and logs again at Debug and Info', async () => {
    for (const [level, expected] of [
      ['Error', 0],
      ['Warn', 0],
      ['Info', 1],
      ['Debug', 1],
    ] as const) {
      const lines: string[] = [];
      const app = logged((_level, message) => lines.push(message), level);
      const answer = await request(app).get('/forest/orders?timezone=UTC');
      expect(answer.status).toBe(204);
      expect(lines).toHaveLength(expected);
    }
  });
});
