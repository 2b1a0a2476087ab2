import { AiError, type AiErrorCode } from './ai-error';

/** The provider's explanation in its error body (`error.message` in both formats). */
function providerMessage(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' ? error.message : undefined;
}

function codeFor(status: number): AiErrorCode {
  if (status === 401 || status === 403) return 'AI_PROVIDER_UNAUTHORIZED';
  if (status === 429) return 'AI_PROVIDER_RATE_LIMITED';
  if (status >= 500) return 'AI_PROVIDER_UNAVAILABLE';
  return 'AI_PROVIDER_REFUSED';
}

const ADVICE: Record<AiErrorCode, string> = {
  AI_PROVIDER_UNAUTHORIZED: 'check the apiKey given to createAiProvider',
  AI_PROVIDER_RATE_LIMITED: 'retry later or raise the quota of the account',
  AI_PROVIDER_UNAVAILABLE: 'the provider failed or is overloaded; retry later',
  AI_PROVIDER_REFUSED: 'the request was refused as invalid',
  AI_PROVIDER_TIMEOUT: '',
  AI_INVALID_REQUEST: '',
  INVALID_AI_PROVIDER: '',
  AI_ALREADY_CONFIGURED: '',
};

/**
 * POSTs JSON to a provider (no retry: the caller decides) and returns the parsed answer; a
 * failure becomes an {@link AiError} naming the provider, its status and message — with the API
 * key removed should the provider echo it.
 */
export async function postToProvider(
  label: string,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  apiKey: string,
): Promise<unknown> {
  const scrub = (text: string) => text.split(apiKey).join('[redacted]');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      throw new AiError('AI_PROVIDER_TIMEOUT', `${label} did not answer within ${timeoutMs} ms.`);
    }
    throw new AiError(
      'AI_PROVIDER_UNAVAILABLE',
      `${label} could not be reached at ${url}: ${scrub((error as Error).message)}.`,
    );
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const code = codeFor(response.status);
    const reason = providerMessage(parsed);
    throw new AiError(
      code,
      scrub(
        `${label} answered HTTP ${response.status}${reason ? `: ${reason}` : ''} (${ADVICE[code]}).`,
      ),
    );
  }
  if (parsed === undefined) {
    throw new AiError('AI_PROVIDER_UNAVAILABLE', `${label} answered something that is not JSON.`);
  }
  return parsed;
}
