import { randomBytes } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, isApiError, type ApiErrorCode } from './api-error';

/** The JSON body of an error response, in the shape the contract gives for its status. */
export type ErrorBody =
  { error: string; message: string } | { code: string; message: string; reference?: string };

/**
 * Turns an error into its status and body: 401/403 as `{error, message}`, others `{code, message}`,
 * plus `reference` for an internal error.
 */
export function toErrorResponse(error: ApiError): { status: number; body: ErrorBody } {
  if (error.status === 401 || error.status === 403) {
    return { status: error.status, body: { error: error.code, message: error.message } };
  }
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.reference) body.reference = error.reference;
  return { status: error.status, body };
}

/** A short, random reference for one internal error: 8 hexadecimal digits, e.g. `3fa91c07`. */
export function newErrorReference(): string {
  return randomBytes(4).toString('hex');
}

/** Logs a 5xx with its cause and, for an internal error, its reference (the one the client got). */
export function logServerError(
  log: { error(fields: object, message: string): void } | undefined,
  apiError: ApiError,
  cause: unknown,
  message: string,
): void {
  if (apiError.status < 500 || !log) return;
  log.error(
    apiError.reference ? { err: cause, reference: apiError.reference } : { err: cause },
    message,
  );
}

/** Express's own errors (body parser, router) carry `status`/`type`; map the ones clients cause. */
function fromExpressError(error: object): ApiError | undefined {
  const { status, type } = error as { status?: unknown; type?: unknown };
  const cause = { cause: error };
  if (type === 'entity.parse.failed') {
    return new ApiError(400, 'invalid_body', 'The request body is not valid JSON.', cause);
  }
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: unknown }).limit;
    const size = typeof limit === 'number' ? `${Math.round(limit / 1_048_576)} MB` : 'the limit';
    return new ApiError(
      413,
      'payload_too_large',
      `The request body is larger than ${size}.`,
      cause,
    );
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(
      415,
      'unsupported_media_type',
      'The request body must be UTF-8 JSON (or a UTF-8 form), sent without Content-Encoding or with gzip, deflate or br.',
      cause,
    );
  }
  if (error instanceof URIError) {
    return new ApiError(
      400,
      'invalid_parameter',
      'The request path is not valid percent-encoded UTF-8.',
      cause,
    );
  }
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
    // Keep the error's own status (a static file's 404 stays a 404); only a plain 400 is the body.
    if (status === 400) {
      return new ApiError(400, 'invalid_body', 'The request could not be read.', cause);
    }
    const { expose, message } = error as { expose?: unknown; message?: unknown };
    const text =
      expose === true && typeof message === 'string' && message !== ''
        ? `${message}.`.replace(/\.\.$/, '.')
        : `The request was refused (HTTP ${status}).`;
    return new ApiError(status, CLIENT_ERROR_CODES[status] ?? 'invalid_request', text, cause);
  }
  return undefined;
}

/** The codes of the client errors express and its middleware (send, body parsers) raise. */
const CLIENT_ERROR_CODES: Record<number, ApiErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
};

// PostgreSQL errors a value of the request can cause (class 22, data exception; 54001, a nesting
// too deep): the shared parsers refuse such values first, this keeps any one missed a 400.
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

function fromDatabaseError(error: object): ApiError | undefined {
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (DATA_EXCEPTION.test(code) || code === '54001')) {
    return new ApiError(
      400,
      'invalid_parameter',
      'A value of the request is out of range or not valid (integers, dates and text without NUL characters are checked).',
      { cause: error },
    );
  }
  return undefined;
}

/** What the error translator knows of the server: whether it runs on the embedded store. */
export interface ErrorContext {
  readonly embeddedStore?: boolean;
}

/**
 * No connection of the pool came free in time (knex's acquire timeout): the store is busy, which
 * the client may retry, not an internal error. On the embedded store (one connection) this is the
 * bounded wait of src/database/open-database.ts. Told by its name: knex is CommonJS, and its error
 * class is no named export for an ES module importing it.
 */
function fromPoolTimeout(error: unknown, context: ErrorContext): ApiError | undefined {
  if (
    !(error instanceof Error) ||
    error.name !== 'KnexTimeoutError' ||
    !/acquiring a connection/i.test(error.message)
  ) {
    return undefined;
  }
  const message = context.embeddedStore
    ? 'The embedded store is busy: it serves one request at a time and others were ahead of this one. Retry in a moment; for many concurrent users, run the platform on PostgreSQL (DATABASE_URL).'
    : 'The database is busy: no connection of the pool came free in time. Retry in a moment.';
  return new ApiError(503, 'service_unavailable', message, {
    cause: error,
    headers: { 'Retry-After': '1' },
  });
}

/**
 * The one error translator of the server: an {@link ApiError} as is, the request errors of
 * express, the body parsers and the database as 4xx, a busy store as 503, anything else a 500
 * whose cause is logged, never sent. The public and the agent-protocol error handlers both start
 * here.
 */
export function toApiError(error: unknown, context: ErrorContext = {}): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new ApiError(400, 'invalid_body', 'The request body is nested too deeply.', {
      cause: error,
    });
  }
  const known =
    typeof error === 'object' && error !== null
      ? (fromPoolTimeout(error, context) ?? fromExpressError(error) ?? fromDatabaseError(error))
      : undefined;
  if (known) return known;
  const reference = newErrorReference();
  return new ApiError(
    500,
    'internal_error',
    `Something went wrong on the server (reference ${reference}). Try again; if it keeps happening, give this reference to your administrator, who finds the error in the server's log under it.`,
    { cause: error, reference },
  );
}

/** The one place where errors become HTTP responses. Unknown errors are logged and hidden. */
export function errorHandler(context: ErrorContext = {}): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = toApiError(error, context);
    logServerError(req.log, apiError, error, 'request failed');
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
