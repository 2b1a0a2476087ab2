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

/**
 * An `error_description` as one human line (RFC 6749 §5.2): a JSON list of schema issues (what
 * request validation reports) becomes `grant_type: Required; code: Required`; any other text has
 * its line breaks and runs of spaces folded.
 */
export function humanOAuthDescription(text: string): string {
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    issues = undefined;
  }
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: unknown; message?: unknown }) => {
        const path = Array.isArray(issue.path) && issue.path.length ? issue.path.join('.') : '';
        const message = typeof issue.message === 'string' ? issue.message : 'invalid';
        return path ? `${path}: ${message}` : message;
      })
      .join('; ')
      .replace(/\s+/g, ' ')
      .trim();
  }
  return text.replace(/\s+/g, ' ').trim() || 'The request is invalid.';
}
