import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToExpress } from '../http/agent-pipeline';
import { loadExpress } from '../http/pipeline/load-express';
import type { RouterSlot } from './router-slot';

/** Default port when neither the call nor `PORT` gives one (platform protocol §12). */
export const DEFAULT_PORT = 3351;

/** What the standalone server serves: the agent's pipeline, through its slot. */
export type StandaloneRoutes = Pick<RouterSlot, 'serve' | 'express' | 'answerUnserved'>;

/**
 * The HTTP server of `mountOnStandaloneServer`: node's server gives every request to the agent's
 * pipeline as node's objects, and the pipeline serves the agent's routes on them; what no route
 * takes is a JSON:API 404. The one exception is the origin routes of the MCP server, written for
 * express (its SDK's transport and the OAuth handlers use express's request and response API): the
 * pipeline hands the requests they claim to an express application that serves nothing else,
 * created (and express loaded) on the first such request. It listens at `start()` and stops at `stop()`.
 */
export class StandaloneServer {
  private server: Server | null = null;
  private originApp: Promise<ToExpress> | null = null;

  constructor(
    private readonly routes: StandaloneRoutes,
    private readonly port: number,
    private readonly host: string | undefined,
  ) {}

  /** The port actually listened on (useful with port 0), or `null` when not listening. */
  get listeningPort(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  async listen(): Promise<void> {
    if (this.server) return;
    const { routes } = this;
    // The pipeline gets node's request and response as they are: express's application swaps
    // their prototypes for its own, and that swap alone made V8 keep each request's objects past
    // young-generation collections (+90 MB of RSS under load).
    const server = createServer((request, response) => {
      routes.serve(
        request,
        response,
        (error) => routes.answerUnserved(request, response, error),
        this.toExpress,
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Runs the origin routes (MCP, OAuth) in an express application of their own. */
  private readonly toExpress: ToExpress = (request, response, next) => {
    this.originApp ??= loadExpress().then((express) => {
      const app = express();
      app.disable('x-powered-by');
      app.set('query parser', 'extended');
      app.use(this.routes.express);
      return app as unknown as ToExpress;
    });
    this.originApp.then((app) => app(request, response, next), next);
  };

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
