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
