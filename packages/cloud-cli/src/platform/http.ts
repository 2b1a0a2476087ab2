import { CliError } from '../cli-error';

/** An answer of the platform: status and parsed JSON body (`null` when not JSON). */
export interface PlatformResponse {
  status: number;
  body: unknown;
}

/** How long one platform call may take before it counts as unreachable. */
const TIMEOUT_MS = 15_000;

/**
 * Sends one request to the platform and reads its JSON answer. Network failures and timeouts
 * become a `PLATFORM_UNREACHABLE` error naming the URL (never a header, so no secret).
 */
export async function platformRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<PlatformResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliError(
      'PLATFORM_UNREACHABLE',
      `Cannot reach the Canopy platform at ${new URL(url).origin}; check CANOPY_SERVER_URL (or --server-url) and your network, then try again.`,
      { cause: error },
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}

/** The human-readable reason in an error body (`errors[0].detail`, `error_description`, `error`). */
export function errorDetail(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const errors = record.errors;
  if (Array.isArray(errors) && typeof errors[0]?.detail === 'string') return errors[0].detail;
  if (typeof record.error_description === 'string') return record.error_description;
  if (typeof record.error === 'string') return record.error;
  return null;
}

/** A `PLATFORM_ERROR` for an answer canopy-cloud cannot use. */
export function unexpectedAnswer(what: string, response: PlatformResponse): CliError {
  const detail = errorDetail(response.body);
  return new CliError(
    'PLATFORM_ERROR',
    `The Canopy platform could not ${what} (HTTP ${response.status}${detail ? `: ${detail}` : ''}); try again later or check the platform's logs.`,
  );
}
