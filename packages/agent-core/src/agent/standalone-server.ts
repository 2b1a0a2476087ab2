import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';

import type { HttpRequest, HttpResponse } from '../http/request/node-http';

/** Serves a request without express's application when it can (the agent's hot routes). */
export type FastPath = (request: HttpRequest, response: HttpResponse) => boolean;

/** Default port when neither the call nor `PORT` gives one (platform protocol §12). */
export const DEFAULT_PORT = 3351;

/**
 * The HTTP server of `mountOnStandaloneServer`: an express application that only serves the
 * agent. It listens at `start()` and stops at `stop()`.
 */
export class StandaloneServer {
  private server: Server | null = null;

  constructor(
    private readonly handler: RequestHandler,
    private readonly port: number,
    private readonly host: string | undefined,
    private readonly fastPath: FastPath | null = null,
  ) {}

  /** The port actually listened on (useful with port 0), or `null` when not listening. */
  get listeningPort(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  async listen(): Promise<void> {
    if (this.server) return;
    const app = express();
    app.disable('x-powered-by');
    app.set('query parser', 'extended');
    app.use(this.handler);
    const fastPath = this.fastPath;
    // The hot routes get node's request and response as they are: express's application, which
    // every other request goes to, swaps their prototypes for its own, and that swap alone made
    // V8 keep each request's objects past young-generation collections (promoted to the old
    // space, where they piled up as garbage until a full collection: +90 MB of RSS under load).
    const server = createServer(
      fastPath
        ? (request, response) => {
            if (!fastPath(request, response)) app(request, response);
          }
        : app,
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /**
   * Stops listening and closes every connection (the agent lets requests in flight finish
   * before calling it).
   */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
