/**
 * Errors raised by the HTTP layer itself (guards, parsers). Each carries the status it maps to
 * and a stable `code`; the error translator (`error-handler.ts`) renders them in the envelope of
 * agent-http-protocol §14.
 */
export class HttpError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable machine-readable code, e.g. `UNAUTHORIZED`. */
  readonly code: string;
  /** Extra data for the client (e.g. the roles allowed to approve); never secrets. */
  readonly data?: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    options?: { cause?: unknown; data?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    if (options?.data) this.data = options.data;
  }
}

/** No token, or a token that is malformed, tampered with or expired (401). */
export class UnauthorizedError extends HttpError {
  constructor(message = 'Authentication Error', options?: { cause?: unknown }) {
    super(401, 'UNAUTHORIZED', message, options);
  }
}

/** The caller is authenticated but not allowed (403). */
export class HttpForbiddenError extends HttpError {
  constructor(message = 'Forbidden', options?: { data?: Record<string, unknown> }) {
    super(403, 'FORBIDDEN', message, options);
    this.name = 'ForbiddenError';
  }
}

/** A record or resource that does not exist, or is out of the caller's scope (404). */
export class NotFoundError extends HttpError {
  constructor(message = 'Record does not exists') {
    super(404, 'NOT_FOUND', message);
  }
}
