/**
 * The Console's one client of the platform (admin-api-server): the `/v1/me`, management, account,
 * insights and approvals routes all go through it. It owns what every call shares: where the
 * token comes from, what a missing token or a 401 means (the session expired: drop the token, ask
 * `onUnauthorized` for a new one, send the call once more), and how an error answer becomes a
 * {@link PlatformError}. Plain TypeScript over `fetch`, no React.
 */
import { parseErrorEnvelope } from './error-envelope';

/** A refusal or failure of the platform, with what its error envelope said. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    /** The envelope's code (`forbidden`, `invalid_body`…); `network` when nothing answered. */
    readonly code: string,
    message: string,
    /** An internal error's reference, which the platform logged the error under. */
    readonly reference?: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export interface PlatformTokenSource {
  /** The signed-in user's platform access token, if any is still valid. */
  get(): string | undefined;
  /** Forgets the token: the platform refused it. */
  drop(): void;
}

export interface PlatformClientOptions {
  /** The platform's origin; the Console is served there, so `''` (this page's) by default. */
  baseUrl?: string;
  token: PlatformTokenSource;
  /**
   * Called when the session is missing or refused (no token, or a 401): resolve `true` once a
   * new token is there (the call is then sent once more), `false` to give up with a 401.
   */
  onUnauthorized?(): Promise<boolean>;
  fetch?: typeof fetch;
}

export interface PlatformInit extends Omit<RequestInit, 'body' | 'headers'> {
  headers?: Record<string, string>;
  /** A body sent as it is (a JSON string gets the JSON content type). */
  body?: string;
  /** A value sent as JSON. */
  json?: unknown;
  /**
   * `false`: a missing token or a 401 is this call's own answer (a wrong current password, a
   * best-effort sign-out), so the token is kept and no new sign-in is asked for. Default `true`.
   */
  renewSession?: boolean;
}

export const SESSION_EXPIRED = 'Your platform session has expired; sign in again.';

export class PlatformClient {
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: PlatformClientOptions) {
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** `path` on the platform, with the user's token: the answer when it is 2xx or 304. */
  async send(path: string, init: PlatformInit = {}): Promise<Response> {
    const first = await this.attempt(path, init);
    if (first !== 'unauthorized') return first;
    const renew = init.renewSession !== false && this.options.onUnauthorized !== undefined;
    if (renew && (await this.options.onUnauthorized!())) {
      const second = await this.attempt(path, init);
      if (second !== 'unauthorized') return second;
    }
    throw new PlatformError(401, 'unauthorized', SESSION_EXPIRED);
  }

  /** Like `send`, and reads the JSON answer (`undefined` for a 204 or an empty body). */
  async json<T>(path: string, init: PlatformInit = {}): Promise<T> {
    const response = await this.send(path, init);
    const text = response.status === 204 ? '' : await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async attempt(path: string, init: PlatformInit): Promise<Response | 'unauthorized'> {
    const { headers = {}, body, json, renewSession = true, ...rest } = init;
    const token = this.options.token.get();
    if (!token) return 'unauthorized';
    const payload = json === undefined ? body : JSON.stringify(json);
    let response: Response;
    try {
      response = await this.fetcher(`${(this.options.baseUrl ?? '').replace(/\/+$/, '')}${path}`, {
        ...rest,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
          authorization: `Bearer ${token}`,
        },
        body: payload,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new PlatformError(0, 'network', `The platform did not answer: ${String(error)}`);
    }
    if (response.ok || response.status === 304) return response;
    if (response.status === 401 && renewSession) {
      this.options.token.drop();
      return 'unauthorized';
    }
    throw await platformError(response);
  }
}

/** The {@link PlatformError} of an error answer. */
export async function platformError(response: Response): Promise<PlatformError> {
  const envelope = parseErrorEnvelope(
    await response.text().catch(() => ''),
    `The platform answered ${response.status} ${response.statusText}`.trim() + '.',
  );
  return new PlatformError(
    response.status,
    envelope.code ?? 'error',
    envelope.message,
    envelope.reference,
  );
}
