/**
 * The families of errors: what kind of refusal an error is. The HTTP layer maps an error's
 * {@link CanopyError.code} to a status (`protocol/errors/error-status.ts`); a code it does not know (a
 * customer's own) takes its family's status: `validation` 400, `unauthorized` 401, `forbidden`
 * 403, `not-found` 404, `unprocessable` and `business` 422 (agent-http-protocol §14.2).
 */
export type ErrorFamily =
  'validation' | 'unauthorized' | 'forbidden' | 'not-found' | 'unprocessable' | 'business';

/** The codes of the errors agent-core throws (a customer's error may use its own). */
export type CanopyErrorCode =
  | 'VALIDATION_ERROR'
  | 'MISSING_COLLECTION'
  | 'MISSING_FIELD'
  | 'MISSING_COLUMN'
  | 'MISSING_RELATION'
  | 'ALREADY_DEFINED'
  | 'RELATION_FIELD_ACCESS_DENIED'
  | 'UNEXPECTED_FIELD_TYPE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'ACTION_TRIGGER_FORBIDDEN'
  | 'ACTION_REQUIRES_APPROVAL'
  | 'APPROVAL_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'UNPROCESSABLE'
  | 'INVALID_SCOPE'
  | 'INVALID_ACTION_CONDITION'
  | 'NO_PRIMARY_KEY'
  | 'BUSINESS_ERROR'
  | 'PRECONDITION_FAILED';

/**
 * Base of every error agent-core throws for a refusal (bad input, no right, nothing there, …),
 * from the data model up to the operations; the adapters translate it (HTTP: one table from the
 * code to the status; MCP: a tool error). Its `name` is the class's, which the JSON:API error
 * body carries (the reference's names: `ValidationError`, `ForbiddenError`, …). Check errors by
 * {@link CanopyError.code} or {@link CanopyError.family} (see {@link isCanopyError}), never with a
 * bare `instanceof`: two installed copies of the package would have two different classes.
 */
export class CanopyError extends Error {
  /** Stable machine-readable code, e.g. `MISSING_FIELD`. */
  readonly code: string;
  readonly family: ErrorFamily;
  /** Extra data for the client (e.g. a forbidden error's details); never secrets. */
  readonly data?: Record<string, unknown>;

  constructor(
    family: ErrorFamily,
    code: string,
    message: string,
    options?: { cause?: unknown; data?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.family = family;
    this.code = code;
    if (options?.data) this.data = options.data;
  }
}

/**
 * Whether `error` is a Canopy error, optionally of a family or with a code.
 *
 * @example
 * if (isCanopyError(error, { family: 'validation' })) response.status(400);
 */
export function isCanopyError(
  error: unknown,
  expected: { family?: ErrorFamily; code?: string } = {},
): error is CanopyError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<CanopyError>;
  if (typeof candidate.code !== 'string' || typeof candidate.family !== 'string') return false;
  if (expected.family && candidate.family !== expected.family) return false;
  if (expected.code && candidate.code !== expected.code) return false;
  return true;
}

/** Bad input: a wrong value, an unknown field, a misused customization. */
export class ValidationError extends CanopyError {
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super('validation', options?.code ?? 'VALIDATION_ERROR', message, options);
  }
}

/** No credentials, or credentials that are malformed, tampered with or expired. */
export class UnauthorizedError extends CanopyError {
  constructor(message = 'Authentication Error', options?: { cause?: unknown }) {
    super('unauthorized', 'UNAUTHORIZED', message, options);
  }
}

/** The caller may not do this. */
export class ForbiddenError extends CanopyError {
  constructor(
    message = 'Forbidden',
    options?: { cause?: unknown; data?: Record<string, unknown>; code?: string },
  ) {
    super('forbidden', options?.code ?? 'FORBIDDEN', message, options);
  }
}

/** A record or resource that does not exist, or is out of the caller's scope. */
export class NotFoundError extends CanopyError {
  constructor(message = 'Record does not exists', options?: { cause?: unknown }) {
    super('not-found', 'NOT_FOUND', message, options);
  }
}

/**
 * A conditional request whose condition no longer holds: an update sent with the `If-Match` of a
 * record that changed since (HTTP 412). `data` tells the client what it needs to merge.
 */
export class PreconditionFailedError extends CanopyError {
  constructor(message: string, data: Record<string, unknown>) {
    super('unprocessable', 'PRECONDITION_FAILED', message, { data });
  }
}

/** The request is well-formed but cannot be processed (e.g. writing to a view). */
export class UnprocessableError extends CanopyError {
  constructor(
    message: string,
    options?: { cause?: unknown; data?: Record<string, unknown>; code?: string },
  ) {
    super('unprocessable', options?.code ?? 'UNPROCESSABLE', message, options);
  }
}

/**
 * The row-level scope the platform sent for the caller's team cannot be applied to a collection
 * (a field the collection no longer has, or cannot filter with that operator): answered 422 with
 * `data: { collection, reason }`, so a front end can tell "your team's scope is wrong" from a bad
 * request of its own.
 */
export class InvalidScopeError extends CanopyError {
  constructor(collection: string, reason: string, options?: { cause?: unknown }) {
    super(
      'unprocessable',
      'INVALID_SCOPE',
      `The scope of your team on '${collection}' cannot be applied: ${reason}`,
      { ...options, data: { collection, reason } },
    );
  }
}

/** A generic business failure whose message is shown to the user. */
export class BusinessError extends CanopyError {
  constructor(message: string, options?: { cause?: unknown; data?: Record<string, unknown> }) {
    super('business', 'BUSINESS_ERROR', message, options);
  }
}
