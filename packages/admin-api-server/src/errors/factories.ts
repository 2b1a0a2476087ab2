import { ApiError } from './api-error';

/** 400 naming the query or path parameter that is wrong. */
export function invalidParameter(name: string, problem: string): ApiError {
  return new ApiError(400, 'invalid_parameter', `Parameter "${name}" ${problem}.`);
}

/** 400 naming the body property that is wrong. */
export function invalidBody(pointer: string, problem: string): ApiError {
  const where = pointer === '' ? 'The request body' : `Body property "${pointer}"`;
  return new ApiError(400, 'invalid_body', `${where} ${problem}.`);
}

/** 401: the caller did not prove who it is. */
export function unauthorized(message: string, cause?: unknown): ApiError {
  return new ApiError(401, 'unauthorized', message, { cause });
}

/** 403: the caller is known but may not do this. */
export function forbidden(message: string): ApiError {
  return new ApiError(403, 'forbidden', message);
}
