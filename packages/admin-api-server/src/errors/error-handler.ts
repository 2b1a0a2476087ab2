import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, isApiError } from './api-error';

/** The JSON body of an error response, in the shape the contract gives for its status. */
export type ErrorBody = { error: string; message: string } | { code: string; message: string };

/** Turns an error into its status and body: 401/403 as `{error, message}`, others `{code, message}`. */
export function toErrorResponse(error: ApiError): { status: number; body: ErrorBody } {
  if (error.status === 401 || error.status === 403) {
    return { status: error.status, body: { error: error.code, message: error.message } };
  }
  return { status: error.status, body: { code: error.code, message: error.message } };
}

/** Express's own errors (body parser, etc.) carry `status`/`type`; map the ones clients cause. */
export function fromExpressError(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (type === 'entity.parse.failed') {
    return new ApiError(400, 'invalid_body', 'The request body is not valid JSON.', {
      cause: error,
    });
  }
  if (type === 'entity.too.large') {
    return new ApiError(413, 'payload_too_large', 'The request body is larger than 1 MB.', {
      cause: error,
    });
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(415, 'unsupported_media_type', 'The request body must be UTF-8 JSON.', {
      cause: error,
    });
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(400, 'invalid_body', 'The request could not be read.', { cause: error });
  }
  return undefined;
}

/** The one place where errors become HTTP responses. Unknown errors are logged and hidden. */
export function errorHandler(): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError =
      (isApiError(error) ? error : fromExpressError(error)) ??
      new ApiError(500, 'internal_error', 'An unexpected error occurred; it has been logged.', {
        cause: error,
      });
    if (apiError.status >= 500) req.log?.error({ err: error }, 'request failed');
    const { status, body } = toErrorResponse(apiError);
    if (res.headersSent) {
      res.destroy(error instanceof Error ? error : undefined);
      return;
    }
    res.set(apiError.headers).status(status).json(body);
  };
}

/** 404 for paths no route serves. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new ApiError(404, 'route_not_found', `No route serves ${req.method} ${req.path}.`));
  };
}
