import type { Express } from 'express';
import type { Logger } from 'pino';
import { ApiError, isApiError } from './api-error';
import { toErrorResponse } from './error-handler';

it('shapes 401 and 403 as {error, message} and the rest as {code, message}', () => {
  expect(toErrorResponse(new ApiError(401, 'unauthorized', 'expired'))).toEqual({
    status: 401,
    body: { error: 'unauthorized', message: 'expired' },
  });
  expect(toErrorResponse(new ApiError(403, 'forbidden', 'scope'))).toEqual({
    status: 403,
    body: { error: 'forbidden', message: 'scope' },
  });
  expect(toErrorResponse(new ApiError(404, 'note_not_found', 'gone'))).toEqual({
    status: 404,
    body: { code: 'note_not_found', message: 'gone' },
  });
});

it('recognizes API errors by brand, not by class identity', () => {
  expect(isApiError(new ApiError(400, 'invalid_parameter', 'x'))).toBe(true);
  const lookalike = Object.assign(new Error('x'), { name: 'ApiError', status: 400, code: 'x' });
  expect(isApiError(lookalike)).toBe(false);
  const copy = Object.assign(new Error('x'), { name: 'ApiError' });
  (copy as unknown as Record<symbol, boolean>)[Symbol.for('@canopy/admin-api-server/ApiError')] =
    true;
  expect(isApiError(copy)).toBe(true);
});

describe('express and send errors keep their own status', () => {
  it('turns a missing file of res.sendFile into a 404, not a 400', async () => {
    const { default: express } = await import('express');
    const { default: request } = await import('supertest');
    const { errorHandler } = await import('./error-handler');
    const app = express();
    app.get('/file', (_req, res, next) => {
      res.sendFile('missing.html', { root: __dirname }, (error) => next(error));
    });
    app.use(errorHandler());
    const response = await request(app).get('/file');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'not_found', message: expect.any(String) });
  });

  it('keeps 4xx statuses, maps a plain 400 to invalid_body and leaves 5xx unknown', async () => {
    const { toApiError } = await import('./error-handler');
    const withStatus = (status: number, message = 'Nope') =>
      Object.assign(new Error(message), { status, expose: true });
    expect(toApiError(withStatus(416, 'Range Not Satisfiable'))).toMatchObject({
      status: 416,
      code: 'range_not_satisfiable',
      message: 'Range Not Satisfiable.',
    });
    expect(toApiError(withStatus(418))).toMatchObject({ status: 418, code: 'invalid_request' });
    expect(toApiError(withStatus(400))).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(toApiError(withStatus(503))).toMatchObject({ status: 500, code: 'internal_error' });
    const hidden = Object.assign(new Error('secret detail'), { status: 404, expose: false });
    expect(toApiError(hidden).message).not.toContain('secret');
  });
});

it('answers a pool that gave no connection in time as a 503 saying the store is busy', async () => {
  const { KnexTimeoutError } = await import('knex');
  const { toApiError } = await import('./error-handler');
  const timeout = new KnexTimeoutError(
    'Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?',
  );
  const embedded = toApiError(timeout, { embeddedStore: true });
  expect(embedded).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(embedded.message).toMatch(/^The embedded store is busy/);
  expect(embedded.headers).toEqual({ 'Retry-After': '1' });
  expect(toApiError(timeout).message).toMatch(/^The database is busy/);
  // A query's own timeout is no busy pool.
  expect(toApiError(new KnexTimeoutError('Defined query timeout of 10ms exceeded')).status).toBe(
    500,
  );
});

describe('an internal error carries a reference, in the answer and on its log line', () => {
  /** An app whose route throws, logging through pino into `lines`. */
  async function failingApp(mount: (app: Express, log: Logger) => void) {
    const { default: express } = await import('express');
    const { default: pino } = await import('pino');
    const { Writable } = await import('node:stream');
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const app = express();
    app.use((req, _res, next) => {
      req.log = log;
      next();
    });
    mount(app, log);
    return { app, lines };
  }

  it('answers {code, message, reference} and logs the cause with that reference', async () => {
    const { default: request } = await import('supertest');
    const { errorHandler } = await import('./error-handler');
    const { app, lines } = await failingApp((app) => {
      app.get('/boom', () => {
        throw new Error('database password is hunter2');
      });
      app.use(errorHandler());
    });
    const response = await request(app).get('/boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      code: 'internal_error',
      message: expect.stringContaining(response.body.reference),
      reference: expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    expect(response.body.message).not.toMatch(/server logs|hunter2/);
    const line = lines.find((entry) => entry.msg === 'request failed');
    expect(line).toMatchObject({ reference: response.body.reference });
    expect((line!.err as { message: string }).message).toBe('database password is hunter2');
    // Each failure has its own reference.
    const again = await request(app).get('/boom');
    expect(again.body.reference).not.toBe(response.body.reference);
  });

  it('puts the reference in meta of the agent-protocol error, and on the log line', async () => {
    const { default: request } = await import('supertest');
    const { agentErrorHandler } = await import('../agent-protocol/agent-error-handler');
    const { app, lines } = await failingApp((app, log) => {
      app.get('/forest/boom', () => {
        throw new Error('unexpected');
      });
      const ctx = { config: { database: { kind: 'postgres' } }, logger: log };
      app.use(agentErrorHandler(ctx as never));
    });
    const response = await request(app).get('/forest/boom');
    expect(response.status).toBe(500);
    const [item] = response.body.errors;
    expect(item.meta.reference).toMatch(/^[0-9a-f]{8}$/);
    expect(item.detail).toContain(item.meta.reference);
    expect(item.detail).not.toMatch(/server logs/);
    expect(lines.find((entry) => entry.msg === 'agent protocol request failed')).toMatchObject({
      reference: item.meta.reference,
    });
  });

  it('gives no reference to client errors', async () => {
    expect(toErrorResponse(new ApiError(400, 'invalid_parameter', 'bad')).body).toEqual({
      code: 'invalid_parameter',
      message: 'bad',
    });
  });
});
