/** Stable codes of {@link PlatformError}. */
export type PlatformErrorCode =
  /** No answer: DNS, refused connection, reset, or a 502 from a proxy. */
  | 'PLATFORM_UNREACHABLE'
  /** No answer within the call's time limit. */
  | 'PLATFORM_TIMEOUT'
  /** The environment secret is not accepted (401/403). */
  | 'PLATFORM_FORBIDDEN'
  /** 404: usually an environment secret that matches no environment. */
  | 'PLATFORM_NOT_FOUND'
  /** 503: the platform is under maintenance. */
  | 'PLATFORM_MAINTENANCE'
  /** Any other error status. */
  | 'PLATFORM_ERROR'
  /** A 2xx answer whose body is not what the protocol says. */
  | 'PLATFORM_BAD_RESPONSE'
  /** The platform client was closed (the agent stopped) while the call was pending. */
  | 'PLATFORM_CLIENT_CLOSED';

/**
 * A failed call to the Canopy platform. The message names the URL and the reason; it never
 * contains the environment secret. Check it by {@link PlatformError.code} (see
 * {@link isPlatformError}).
 */
export class PlatformError extends Error {
  readonly code: PlatformErrorCode;
  /** The URL called (method and path in the message). */
  readonly url: string;
  /**
   * HTTP status of the platform's answer, when it answered. (Not named `status`: that would make
   * the agent's own error translator answer with the platform's status.)
   */
  readonly responseStatus?: number;
  /** The platform's own explanation (`errors[0].detail` of its answer), when it gave one. */
  readonly detail?: string;

  constructor(
    code: PlatformErrorCode,
    message: string,
    details: { url: string; responseStatus?: number; detail?: string; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = code;
    this.url = details.url;
    if (details.responseStatus !== undefined) this.responseStatus = details.responseStatus;
    if (details.detail !== undefined) this.detail = details.detail;
  }
}

/**
 * Whether `error` is a {@link PlatformError}, optionally with a given code (compared by name).
 *
 * @example
 * await agent.start().catch((error) => {
 *   if (isPlatformError(error, 'PLATFORM_UNREACHABLE')) console.error('Is CANOPY_SERVER_URL right?');
 *   throw error;
 * });
 */
export function isPlatformError(error: unknown, code?: PlatformErrorCode): error is PlatformError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<PlatformError>;
  if (candidate.name !== 'PlatformError' || typeof candidate.code !== 'string') return false;
  return code === undefined || candidate.code === code;
}
