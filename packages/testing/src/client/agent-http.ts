/** An HTTP error answered by the agent (or the sandbox): status, parsed body and raw text. */
export class AgentHttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;

  constructor(method: string, url: string, status: number, text: string) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // A plain-text answer (e.g. `Not Found`) stays text.
    }
    const detail =
      (body as { errors?: { detail?: string }[] } | null)?.errors?.[0]?.detail ??
      (body as { error?: string } | null)?.error ??
      text;
    super(`${method} ${new URL(url).pathname} answered ${status}: ${String(detail)}`);
    this.name = 'AgentHttpError';
    this.status = status;
    this.body = body;
    this.text = text;
  }
}

/** Per-request time limit (platform protocol §14.5). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** One call to the agent: method, path under the agent URL, query and JSON body. */
export interface AgentRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  accept?: string;
  /** Extra request headers (e.g. `Forest-Projection`). */
  headers?: Record<string, string>;
}

/** Sends requests to the agent as the front end does: bearer token and `timezone` on each. */
export class AgentHttp {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timezone: string,
  ) {}

  /** The full URL of a request. */
  url(path: string, query: Record<string, string | undefined> = {}): string {
    const url = new URL(
      `${this.baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`,
    );
    url.searchParams.set('timezone', this.timezone);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url.toString();
  }

  /** Sends a request and returns the raw response (errors thrown as {@link AgentHttpError}). */
  async send(request: AgentRequest): Promise<Response> {
    const url = this.url(request.path, request.query);
    const response = await fetch(url, {
      method: request.method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        Accept: request.accept ?? 'application/json',
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) {
      throw new AgentHttpError(request.method, url, response.status, await response.text());
    }
    return response;
  }

  /** Sends a request and parses its JSON answer (`undefined` for 204). */
  async json<T = unknown>(request: AgentRequest): Promise<T> {
    const response = await this.send(request);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}
