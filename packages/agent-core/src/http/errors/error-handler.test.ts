import type { IncomingMessage, ServerResponse } from 'node:http';

import request from 'supertest';

import type { Logger } from '../../toolkit/interfaces/logger';
import { createErrorTranslator } from './error-handler';

/** A server whose routes throw, with the error translator logging into `lines`. */
function failingApp() {
  const lines: { level: string; message: string; error?: unknown }[] = [];
  const logger: Logger = (level, message, error) => lines.push({ level, message, error });
  const translate = createErrorTranslator(logger);
  const app = (incoming: IncomingMessage, response: ServerResponse) => {
    const error = (incoming.url ?? '').startsWith('/forest/refused')
      ? Object.assign(new Error('Total must be positive'), { name: 'ValidationError' })
      : new Error('connection to 10.0.0.3 refused');
    translate(error, incoming, response);
  };
  return { app, lines };
}

describe('the error translator', () => {
  it('answers a 500 with a reference in meta, and logs the error under that reference', async () => {
    const { app, lines } = failingApp();
    const response = await request(app).get('/forest/orders?search=secret').expect(500);
    const [item] = response.body.errors;
    expect(item).toEqual({
      name: 'Error',
      detail: 'Unexpected error',
      status: 500,
      meta: { reference: expect.stringMatching(/^[0-9a-f]{8}$/) },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('Error');
    expect(lines[0]!.message).toBe(`GET /forest/orders failed (reference ${item.meta.reference})`);
    expect((lines[0]!.error as Error).message).toBe('connection to 10.0.0.3 refused');

    const again = await request(app).get('/forest/orders').expect(500);
    expect(again.body.errors[0].meta.reference).not.toBe(item.meta.reference);
  });

  it('gives a client error no reference and logs nothing', async () => {
    const { app, lines } = failingApp();
    const response = await request(app).get('/forest/refused').expect(400);
    expect(response.body.errors[0]).toEqual({
      name: 'ValidationError',
      detail: 'Total must be positive',
      status: 400,
    });
    expect(lines).toEqual([]);
  });
});
