const BRAND = Symbol.for('@canopy/admin-api-server/ApiError');

/**
 * The stable `code` values of error bodies. Clients may branch on them; they never change meaning.
 * 401 and 403 bodies carry `error` (`unauthorized` / `forbidden`) instead, as the contract says.
 */
export type ApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'invalid_parameter'
  | 'invalid_body'
  | 'invalid_cursor'
  | 'invalid_token'
  | 'project_not_found'
  | 'environment_not_found'
  | 'note_not_found'
  | 'activity_log_not_found'
  | 'token_not_found'
  | 'route_not_found'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'range_not_satisfiable'
  | 'invalid_request'
  | 'rendering_not_found'
  | 'user_not_found'
  | 'role_not_found'
  | 'team_not_found'
  | 'collection_not_found'
  | 'invalid_scope'
  | 'approval_not_found'
  | 'layout_version_not_found'
  | 'view_not_found'
  | 'segment_not_found'
  | 'inbox_item_not_found'
  | 'conflict'
  | 'idempotency_key_reused'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

/** Options shared by every API error. */
export interface ApiErrorOptions {
  /** The underlying error, kept for logs; never sent to the client. */
  cause?: unknown;
  /** Extra response headers (for example `Retry-After`). */
  headers?: Record<string, string>;
  /** The short reference of an internal error, sent to the client and logged with the cause. */
  reference?: string;
}

/**
 * The single error family of the HTTP layer: a status, a stable code and a message that says what
 * was wrong and what would be right. `src/errors/error-handler.ts` turns it into a response.
 *
 * @example
 * throw new ApiError(404, 'project_not_found', 'No project is named "Shop" (names are case sensitive).');
 */
export class ApiError extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Internal errors only: a short reference the user can quote to an administrator, who finds the
   * logged cause under the same reference.
   */
  readonly reference?: string;

  constructor(status: number, code: ApiErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    if (options.reference !== undefined) this.reference = options.reference;
  }
}

/** True for any {@link ApiError}, even one created by another copy of this package. */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof Error &&
    value.name === 'ApiError' &&
    (value as unknown as Record<symbol, unknown>)[BRAND] === true
  );
}
