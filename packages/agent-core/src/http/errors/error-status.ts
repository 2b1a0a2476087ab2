import { isCanopyError } from '../../toolkit/errors/canopy-error';

/** Status of the error families and names of agent-http-protocol §14.2, matched by name. */
const STATUS_BY_NAME: Readonly<Record<string, number>> = {
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
  IntrospectionFormatError: 422,
  InternalServerError: 500,
};

const STATUS_BY_FAMILY = {
  validation: 400,
  forbidden: 403,
  unprocessable: 422,
  business: 422,
} as const;

/** What the translator needs to know about an error: its status and whether it may be shown. */
export interface ErrorClassification {
  status: number;
  /** Whether the message is meant for the user (business and HTTP errors), else `Unexpected error`. */
  exposed: boolean;
}

/**
 * Classifies any thrown value. Matching is by `status`/`family`/`name`, never by bare
 * `instanceof`, so errors from another copy of a library (or from customer code) map the same way.
 */
export function classifyError(error: unknown): ErrorClassification {
  if (typeof error !== 'object' || error === null) return { status: 500, exposed: false };
  const candidate = error as { status?: unknown; name?: unknown; statusCode?: unknown };

  if (isCanopyError(error)) {
    const byName = STATUS_BY_NAME[error.name];
    return { status: byName ?? STATUS_BY_FAMILY[error.family] ?? 500, exposed: true };
  }

  if (typeof candidate.name === 'string') {
    const byName = STATUS_BY_NAME[candidate.name];
    if (byName !== undefined) return { status: byName, exposed: byName !== 500 };
  }

  // A path segment that is not valid percent-encoding: express's router throws a URIError that
  // carries status 400 ("Failed to decode param '…'"). The client sent it, so the client hears it.
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
