import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

type Constructor = (this: object, ...args: unknown[]) => void;

/**
 * The request and response classes for node's server of an express application: their objects
 * are born with the application's `request` and `response` as prototypes.
 *
 * Express gives every request's objects those prototypes as it starts to handle them
 * (`Object.setPrototypeOf` in `app.handle`). On objects born with them that call changes nothing;
 * on node's plain objects it is a real change of prototype on every request, which measured
 * slower in an express app than objects born with them (see the package README, "Without the
 * hot route again").
 *
 * A request is also born with every property the pipeline later gives it: express's (`res`,
 * `next`, `baseUrl`, `originalUrl`, `params`, `route`) and ours (`requestId`, `log`, `project`,
 * `platformAuth`, `environment`; see `context.ts`). Added one by one after node built the object,
 * they used to turn it into a dictionary (V8's slow mode for objects that keep gaining
 * properties): the whole object copied into a hash table on every request, and every property
 * read after that a hash lookup, in node's HTTP code as in express and ours. Born with them, a
 * request keeps one fixed shape and each later assignment writes a field it already has.
 *
 * Node's own `IncomingMessage` and `ServerResponse` are plain constructor functions, which these
 * call as their parents.
 */
export function expressServerOptions(app: Express): ServerOptions {
  const Request = function (this: Record<string, unknown>, socket: unknown) {
    (IncomingMessage as unknown as Constructor).call(this, socket);
    // Express's (application.js and the router), in the order it sets them.
    this.res = undefined;
    this.next = undefined;
    this.baseUrl = '';
    this.originalUrl = '';
    this.params = undefined;
    this.route = undefined;
    // The pipeline's (src/context.ts).
    this.requestId = undefined;
    this.log = undefined;
    this.project = undefined;
    this.platformAuth = undefined;
    this.environment = undefined;
  };
  Request.prototype = app.request;
  const Response = function (this: object, req: unknown, options: unknown) {
    (ServerResponse as unknown as Constructor).call(this, req, options);
  };
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
