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
