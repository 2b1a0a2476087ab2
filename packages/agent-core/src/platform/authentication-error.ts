/**
 * A login that failed (platform protocol §6.4–6.5). `status` is what the agent answers: 401 for
 * an OpenID Connect protocol error (`error` is then the OAuth error code, e.g. `invalid_grant`),
 * 403 when the platform refuses the user on this rendering. Checked by name and `code`.
 */
export class AuthenticationError extends Error {
  readonly code: 'OIDC_PROTOCOL_ERROR' | 'USER_NOT_ALLOWED';
  readonly status: 401 | 403;
  /** OAuth error code for 401, the number 403 for a refused user (the body's `error`). */
  readonly error: string | 403;
  /** Text for the body's `error_description`. */
  readonly description: string;
  /** The callback's `state`, echoed in 401 answers. */
  readonly state?: string;

  constructor(
    details:
      | { status: 401; error: string; description: string; state?: string }
      | {
          status: 403;
          description: string;
        },
    options?: { cause?: unknown },
  ) {
    super(details.description, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AuthenticationError';
    this.status = details.status;
    this.description = details.description;
    if (details.status === 401) {
      this.code = 'OIDC_PROTOCOL_ERROR';
      this.error = details.error;
      if (details.state !== undefined) this.state = details.state;
    } else {
      this.code = 'USER_NOT_ALLOWED';
      this.error = 403;
    }
  }
}
