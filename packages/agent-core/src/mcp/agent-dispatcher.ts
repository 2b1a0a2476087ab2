import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';

import { McpError } from './mcp-error';

/** One call to the agent's REST interface. */
export interface AgentCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the agent's prefix, e.g. `/orders/12`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** The bearer token the agent verifies (the MCP access token is a session token). */
  token: string;
}

/** What the agent answered. */
export interface AgentAnswer {
  status: number;
  /** Parsed JSON, or the raw text when the answer is not JSON. */
  body: unknown;
  headers: Record<string, string>;
}

const DISPATCH_TIMEOUT_MS = 10_000;

/**
 * Sends tool calls to the agent's own router (platform protocol §16.1) over a private loopback
 * listener that serves nothing else: the agent's session check, permissions, scopes, query
 * parsing, JSON:API serialization and activity logging run exactly as for a REST request of the
 * same user, while middleware the host application put in front of the agent is skipped. The
 * router is read at each call, so a restarted agent serves the next call. (An in-memory
 * injection would avoid the socket, but the injection libraries patch express's shared
 * prototypes, which breaks every other express application of the process.)
 */
export class AgentDispatcher {
  private server: Server | null = null;
  private base = '';

  constructor(
    private readonly currentRouter: () => RequestHandler | null,
    private readonly prefix: string,
    private readonly timeoutMs = DISPATCH_TIMEOUT_MS,
  ) {}

  /** Opens the loopback listener. */
  async open(): Promise<void> {
    if (this.server) return;
    const app = express();
    app.disable('x-powered-by');
    app.set('query parser', 'extended');
    app.use((request, response, next) => {
      const router = this.currentRouter();
      if (!router) {
        response
          .status(503)
          .json({ errors: [{ detail: 'The agent is not running.', status: 503 }] });
        return;
      }
      router(request, response, next);
    });
    const server = createServer(app);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${this.prefix.replace(/\/+$/, '')}`;
  }

  /** Closes the listener and its connections. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** Calls the agent as the token's user. */
  async call({ method, path, query, body, token }: AgentCall): Promise<AgentAnswer> {
    if (!this.server) throw new Error('The agent is not running.');
    const url = new URL(`${this.base}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        throw new McpError(
          'MCP_DISPATCH_TIMEOUT',
          `The agent did not answer ${method} ${path} within ${this.timeoutMs} ms.`,
          { cause: error },
        );
      }
      throw error;
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return {
      status: response.status,
      body: json ? (JSON.parse(text) as unknown) : text,
      headers: Object.fromEntries(response.headers),
    };
  }
}
