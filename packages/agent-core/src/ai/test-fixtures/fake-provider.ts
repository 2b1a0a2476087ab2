import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

/** A request the fake provider received. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * A local HTTP server standing in for a provider's API: it records each request and answers the
 * next queued `{status, body}` (the provider's documented wire format is written by each test).
 */
export class FakeProvider {
  readonly received: ReceivedRequest[] = [];
  private readonly answers: { status: number; body: unknown }[] = [];
  private server: Server | null = null;

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/v1`;
  }

  answer(status: number, body: unknown): this {
    this.answers.push({ status, body });
    return this;
  }

  async start(): Promise<this> {
    const app = express();
    app.use(express.json());
    app.post('/v1/*path', (request, response) => {
      this.received.push({ path: request.path, headers: request.headers, body: request.body });
      const next = this.answers.shift() ?? { status: 500, body: { error: { message: 'none' } } };
      response.status(next.status).json(next.body);
    });
    await new Promise<void>((resolve) => {
      this.server = app.listen(0, '127.0.0.1', () => resolve());
    });
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
