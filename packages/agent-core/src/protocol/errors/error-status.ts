import {
  type CanopyErrorCode,
  type ErrorFamily,
  isCanopyError,
} from '../../toolkit/errors/canopy-error';

/**
 * The one table from an error code of agent-core to the HTTP status of its answer
 * (agent-http-protocol §14.2). The JSON:API body carries the error's `name` and message
 * (`error-handler.ts`).
 */
export const HTTP_STATUS_BY_CODE: Readonly<Record<CanopyErrorCode, number>> = {
  VALIDATION_ERROR: 400,
  MISSING_COLLECTION: 400,
  MISSING_FIELD: 400,
  MISSING_COLUMN: 400,
  MISSING_RELATION: 400,
  ALREADY_DEFINED: 400,
  RELATION_FIELD_ACCESS_DENIED: 400,
  UNEXPECTED_FIELD_TYPE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ACTION_TRIGGER_FORBIDDEN: 403,
  ACTION_REQUIRES_APPROVAL: 403,
  APPROVAL_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  UNPROCESSABLE: 422,
  INVALID_SCOPE: 422,
  INVALID_ACTION_CONDITION: 422,
  NO_PRIMARY_KEY: 422,
  BUSINESS_ERROR: 422,
  PRECONDITION_FAILED: 412,
};

/** A code the table does not know (a customer's own) takes the status of its family. */
const HTTP_STATUS_BY_FAMILY: Readonly<Record<ErrorFamily, number>> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  unprocessable: 422,
  business: 422,
};

/**
 * Errors that are not Canopy errors (customer code, another library, another copy of this one)
 * are recognised by the reference's names (agent-http-protocol §14.2), so that customer code can
 * throw them to choose the status.
 */
const HTTP_STATUS_BY_NAME: Readonly<Record<string, number>> = {
  ValidationError: 400,
  BadRequestError: 400,
  MissingFieldError: 400,
  MissingColumnError: 400,
  MissingRelationError: 400,
  MissingCollectionError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  CustomActionTriggerForbiddenError: 403,
  CustomActionRequiresApprovalError: 403,
  ApprovalNotAllowedError: 403,
  NotFoundError: 404,
  TooManyRequestsError: 429,
  UnprocessableError: 422,
  InvalidActionConditionError: 422,
  NoPrimaryKeyError: 422,
  BusinessError: 422,
  PreconditionFailedError: 412,
  IntrospectionFormatError: 422,
  InternalServerError: 500,
};

/** A table's own entry for `key` (a name such as `constructor` finds nothing). */
function lookUp(table: Readonly<Record<string, number>>, key: string): number | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** What the translator needs to know about an error: its status and whether it may be shown. */
export interface ErrorClassification {
  status: number;
  /** Whether the message is meant for the user (business and HTTP errors), else `Unexpected error`. */
  exposed: boolean;
}

/**
 * Classifies any thrown value. Matching is by `code`/`family`/`name`/`status`, never by bare
 * `instanceof`, so errors from another copy of a library (or from customer code) map the same way.
 */
export function classifyError(error: unknown): ErrorClassification {
  if (typeof error !== 'object' || error === null) return { status: 500, exposed: false };
  const candidate = error as { status?: unknown; name?: unknown; statusCode?: unknown };

  if (isCanopyError(error)) {
    const status =
      lookUp(HTTP_STATUS_BY_CODE, error.code) ??
      lookUp(HTTP_STATUS_BY_NAME, error.name) ??
      lookUp(HTTP_STATUS_BY_FAMILY, error.family) ??
      500;
    return { status, exposed: true };
  }

  if (typeof candidate.name === 'string') {
    const byName = lookUp(HTTP_STATUS_BY_NAME, candidate.name);
    if (byName !== undefined) return { status: byName, exposed: byName !== 500 };
  }

  // A path segment that is not valid percent-encoding: the route table (as express's router did)
  // raises a URIError that carries status 400 ("Failed to decode param '…'"). The client sent it,
  // so the client hears it.
  if (candidate.name === 'URIError' && candidate.status === 400) {
    return { status: 400, exposed: true };
  }

  if (
    typeof candidate.status === 'number' &&
    Number.isInteger(candidate.status) &&
    candidate.status >= 400 &&
    candidate.status < 500 &&
    typeof candidate.name === 'string' &&
    candidate.name.endsWith('Error') &&
    'code' in error
  ) {
    return { status: candidate.status, exposed: true };
  }

  return { status: 500, exposed: false };
}
