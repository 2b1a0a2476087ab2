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

/**
 * 404 for a project the caller may not see: an unknown name and a project of which the caller is
 * no member get this same answer, so names of other tenants' projects cannot be probed.
 */
export function projectNotAccessible(name: string): ApiError {
  return new ApiError(
    404,
    'project_not_found',
    `No project named "${name}" is accessible with these credentials (names are case sensitive).`,
  );
}
