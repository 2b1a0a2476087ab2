/**
 * An OAuth error to send to the MCP client as `{"error", "error_description"}` (RFC 6749 §5.2),
 * e.g. relayed from the platform. Kept apart from local and tool errors.
 */
export class OAuthFailure extends Error {
  constructor(
    /** The OAuth error code: `invalid_grant`, `invalid_client`, `server_error`... */
    readonly error: string,
    description: string,
  ) {
    super(description);
    this.name = 'OAuthFailure';
  }
}
