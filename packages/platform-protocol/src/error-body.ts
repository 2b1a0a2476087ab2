/**
 * The body of the platform's error answers on its public and management API
 * (docs/public-api.md §5): `code` on most statuses, `error` on 401 and 403, and a `reference`
 * on internal errors, which the server logged the error's cause under.
 */
export interface PlatformErrorBody {
  /** A machine-readable code: `invalid_body`, `project_not_found`, `internal_error`… */
  code?: string;
  /** The code of a 401 (`unauthorized`) or a 403 (`forbidden`). */
  error?: string;
  /** What went wrong, in words (never a token nor a secret). */
  message: string;
  /** Internal errors (500): the short reference an administrator finds in the server's log. */
  reference?: string;
}
