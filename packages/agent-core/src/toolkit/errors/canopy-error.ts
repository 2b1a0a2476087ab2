/**
 * The families of errors. The HTTP layer maps a family to a status code in one place:
 * `validation` → 400, `forbidden` → 403, `unprocessable` → 422, `business` → 400 with the message.
 */
export type ErrorFamily = 'validation' | 'forbidden' | 'unprocessable' | 'business';

/**
 * Base of every error thrown by the data model and the customizer. Check errors by
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

/** The caller may not do this. */
export class ForbiddenError extends CanopyError {
  constructor(message: string, options?: { cause?: unknown; data?: Record<string, unknown> }) {
    super('forbidden', 'FORBIDDEN', message, options);
  }
}

/** The request is well-formed but cannot be processed (e.g. writing to a view). */
export class UnprocessableError extends CanopyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('unprocessable', 'UNPROCESSABLE', message, options);
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
