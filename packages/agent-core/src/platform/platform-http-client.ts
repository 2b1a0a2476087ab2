import type { Logger } from '../toolkit/interfaces/logger';
import { PlatformError, type PlatformErrorCode } from './platform-error';

/** Settings of {@link PlatformHttpClient}. */
export interface PlatformHttpClientOptions {
  /** Base URL of the platform; paths are resolved against its origin (protocol §1). */
  serverUrl: string;
  envSecret: string;
  logger: Logger;
  /** Time limit of one attempt; default 10 s. */
  timeoutMs?: number;
  /** Extra attempts after a transient failure (network, timeout, 429, 5xx); default 2. */
  retries?: number;
  /** First delay between attempts, doubled each time (plus jitter); default 300 ms. */
  retryDelayMs?: number;
}

/** One call. */
export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body, or a `URLSearchParams` for form-encoded bodies. */
  body?: unknown;
  /**
   * How to authenticate: the `forest-secret-key` header (default), the environment secret as a
   * bearer token (OIDC registration), another bearer token, or nothing.
   */
  auth?: 'secret' | 'secret-bearer' | { bearer: string } | 'none';
  headers?: Record<string, string>;
  timeoutMs?: number;
  retries?: number;
  /** Statuses other than 2xx to resolve instead of rejecting (the body is returned). */
  acceptStatuses?: number[];
}

/** A 2xx (or accepted) answer. */
export interface PlatformResponse<T> {
  status: number;
  body: T;
}

const TRANSIENT_STATUSES = new Set([429, 500, 502, 503, 504]);
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * HTTP calls to the Canopy platform: JSON in and out, the environment secret in the
 * `forest-secret-key` header, a time limit per attempt, retries with exponential backoff on
 * transient failures, and errors ({@link PlatformError}) that say which URL failed and why.
 * `close()` aborts every pending call and backoff so a stopping agent leaves nothing behind.
 */
export class PlatformHttpClient {
  readonly serverUrl: string;
  private readonly envSecret: string;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly closing = new AbortController();

  constructor(options: PlatformHttpClientOptions) {
    this.serverUrl = options.serverUrl;
    this.envSecret = options.envSecret;
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 300;
  }

  /** The signal aborted by {@link close} (for long-lived calls such as the event stream). */
  get closeSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** Resolves an absolute path (`/liana/...`) or a full URL against the platform's origin. */
  url(path: string): string {
    return new URL(path, this.serverUrl).toString();
  }

  /** Headers that authenticate a call (used by the event stream, which reads the body itself). */
  authHeaders(auth: PlatformRequest['auth'] = 'secret'): Record<string, string> {
    if (auth === 'none') return {};
    if (auth === 'secret') return { 'forest-secret-key': this.envSecret };
    if (auth === 'secret-bearer') return { authorization: `Bearer ${this.envSecret}` };
    return { authorization: `Bearer ${auth.bearer}` };
  }

  /**
   * Calls the platform and returns the parsed JSON body (`undefined` when empty).
   *
   * @throws PlatformError after the last attempt, or at once for non-transient statuses.
   */
  async request<T>(path: string, request: PlatformRequest = {}): Promise<PlatformResponse<T>> {
    const method = request.method ?? 'GET';
    const url = this.url(path);
    const retries = request.retries ?? this.retries;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.attempt<T>(method, url, request);
      } catch (error) {
        const transient = error instanceof TransientFailure;
        const failure = transient ? error.error : (error as PlatformError);
        if (!transient || attempt >= retries || this.closing.signal.aborted) throw failure;
        const delay =
          error.retryAfterMs ??
          this.retryDelayMs * 2 ** attempt + Math.floor(Math.random() * this.retryDelayMs);
        this.logger(
          'Debug',
          `${failure.message}; retrying in ${delay} ms (attempt ${attempt + 2} of ${retries + 1})`,
        );
        await this.sleep(delay, method, url);
      }
    }
  }

  /** Aborts every pending call and backoff; later calls fail with `PLATFORM_CLIENT_CLOSED`. */
  close(): void {
    this.closing.abort();
  }

  private async attempt<T>(
    method: string,
    url: string,
    request: PlatformRequest,
  ): Promise<PlatformResponse<T>> {
    if (this.closing.signal.aborted) throw closedError(method, url);
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    // One signal for both causes (AbortSignal.any needs Node 20.3; engines allow 20.0).
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, timeoutMs);
    const onClose = () => attempt.abort();
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const signal = attempt.signal;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.authHeaders(request.auth),
      ...request.headers,
    };
    let body: string | undefined;
    if (request.body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = request.body.toString();
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }

    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body, signal });
      text = await response.text();
    } catch (error) {
      if (this.closing.signal.aborted) throw closedError(method, url);
      if (timedOut) {
        throw new TransientFailure(
          new PlatformError(
            'PLATFORM_TIMEOUT',
            `The Canopy platform did not answer ${method} ${url} within ${timeoutMs / 1000} s.`,
            { url },
          ),
        );
      }
      throw new TransientFailure(networkError(method, url, error));
    } finally {
      clearTimeout(timer);
      this.closing.signal.removeEventListener('abort', onClose);
    }

    const ok = response.ok || (request.acceptStatuses ?? []).includes(response.status);
    if (!ok) {
      const failure = statusError(method, url, response.status, text);
      if (TRANSIENT_STATUSES.has(response.status)) {
        throw new TransientFailure(failure, retryAfter(response.headers.get('retry-after')));
      }
      throw failure;
    }
    if (text.trim() === '') return { status: response.status, body: undefined as T };
    try {
      return { status: response.status, body: JSON.parse(text) as T };
    } catch (error) {
      throw new PlatformError(
        'PLATFORM_BAD_RESPONSE',
        `The Canopy platform answered ${method} ${url} with a body that is not JSON.`,
        { url, responseStatus: response.status, cause: error },
      );
    }
  }

  private sleep(ms: number, method: string, url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(closedError(method, url));
      };
      const timer = setTimeout(() => {
        this.closing.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.closing.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** A failure worth another attempt. */
class TransientFailure {
  constructor(
    readonly error: PlatformError,
    readonly retryAfterMs?: number,
  ) {}
}

function closedError(method: string, url: string): PlatformError {
  return new PlatformError(
    'PLATFORM_CLIENT_CLOSED',
    `The call ${method} ${url} was cancelled because the agent is stopping.`,
    { url },
  );
}

function networkError(method: string, url: string, error: unknown): PlatformError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  if (code && TLS_CODES.has(code)) {
    return new PlatformError(
      'PLATFORM_UNREACHABLE',
      `The TLS certificate of the Canopy platform is not trusted (${code}) for ${method} ${url}: ` +
        'check the server URL, or give Node the issuing authority with NODE_EXTRA_CA_CERTS.',
      { url, cause: error },
    );
  }
  const reason = code ?? cause?.message ?? (error as Error).message;
  return new PlatformError(
    'PLATFORM_UNREACHABLE',
    `Cannot reach the Canopy platform: ${method} ${url} failed (${reason}). ` +
      'Check the server URL (serverUrl or CANOPY_SERVER_URL) and the network.',
    { url, cause: error },
  );
}

function statusError(method: string, url: string, status: number, text: string): PlatformError {
  const detail = errorDetail(text);
  const at = `${method} ${url} answered ${status}`;
  const [code, message]: [PlatformErrorCode, string] =
    status === 502
      ? ['PLATFORM_UNREACHABLE', `Cannot reach the Canopy platform: ${at}${suffix(detail)}.`]
      : status === 401 || status === 403
        ? [
            'PLATFORM_FORBIDDEN',
            `The Canopy platform refused the call: ${at}${suffix(detail ?? 'check the environment secret')}.`,
          ]
        : status === 404
          ? [
              'PLATFORM_NOT_FOUND',
              `The Canopy platform does not know this resource: ${at}${suffix(detail ?? 'check the server URL and the environment secret')}.`,
            ]
          : status === 503
            ? [
                'PLATFORM_MAINTENANCE',
                `The Canopy platform is under maintenance or overloaded: ${at}${suffix(detail)}.`,
              ]
            : [
                'PLATFORM_ERROR',
                `The Canopy platform failed: ${at}${suffix(detail ?? 'unexpected error')}.`,
              ];
  return new PlatformError(code, message, { url, responseStatus: status, detail });
}

function suffix(detail: string | undefined): string {
  return detail ? ` (${detail.replace(/\.$/, '')})` : '';
}

/** The `detail` of the first error of `{"errors":[{"detail": "..."}]}`, if any. */
function errorDetail(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { errors?: { detail?: unknown }[] };
    const detail = body?.errors?.[0]?.detail;
    return typeof detail === 'string' && detail !== '' ? detail : undefined;
  } catch {
    return undefined;
  }
}

function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}
