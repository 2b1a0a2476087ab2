/** Stable codes of {@link AiError}, with the HTTP status the AI route answers. */
export const AI_ERROR_STATUS = {
  /** `createAiProvider` got invalid options. */
  INVALID_AI_PROVIDER: 500,
  /** `addAi` was called a second time. */
  AI_ALREADY_CONFIGURED: 500,
  /** The AI route got a body it cannot forward. */
  AI_INVALID_REQUEST: 400,
  /** The provider refused the request as invalid (its 400/404/422). */
  AI_PROVIDER_REFUSED: 400,
  /** The provider rejected the API key (its 401/403). */
  AI_PROVIDER_UNAUTHORIZED: 401,
  /** The provider's rate limit or quota is exhausted (its 429). */
  AI_PROVIDER_RATE_LIMITED: 429,
  /** The provider failed or is overloaded (its 5xx, 529), or could not be reached. */
  AI_PROVIDER_UNAVAILABLE: 502,
  /** The provider did not answer in time. */
  AI_PROVIDER_TIMEOUT: 504,
} as const;

/** The code of an {@link AiError}. */
export type AiErrorCode = keyof typeof AI_ERROR_STATUS;

/**
 * An error of the AI proxy: a configuration error (thrown by `createAiProvider`/`addAi`) or a
 * provider failure mapped to the status the AI route answers. Messages name the provider and the
 * reason, never the API key. Check it by {@link AiError.code} (see {@link isAiError}).
 */
export class AiError extends Error {
  readonly code: AiErrorCode;
  /** The status the AI route answers with. */
  readonly status: number;

  constructor(code: AiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = AI_ERROR_STATUS[code];
  }
}

/**
 * Whether `error` is an {@link AiError}, optionally with a given code (compared by name).
 *
 * @example
 * if (isAiError(error, 'AI_PROVIDER_RATE_LIMITED')) retryLater();
 */
export function isAiError(error: unknown, code?: AiErrorCode): error is AiError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<AiError>;
  if (candidate.name !== 'AiError' || typeof candidate.code !== 'string') return false;
  return code === undefined || candidate.code === code;
}
