import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

type Constructor = (this: object, ...args: unknown[]) => void;

/**
 * The request and response classes for node's server of an express application: their objects
 * are born with the application's `request` and `response` as prototypes.
 *
 * Express gives every request's objects those prototypes as it starts to handle them
 * (`Object.setPrototypeOf` in `app.handle`). On objects born with them that call changes nothing;
 * on node's plain objects it is a real change of prototype, after which V8 no longer keeps the
 * objects in their fast shape: every property access on them, in node's HTTP code as in express
 * and ours, takes the slow path, and they cost more to collect. Measured on the public API's list
 * (`bench/list-activity-logs.bench.ts`), that was most of express's cost per request.
 *
 * Node's own `IncomingMessage` and `ServerResponse` are plain constructor functions, which these
 * call as their parents.
 */
export function expressServerOptions(app: Express): ServerOptions {
  const Request = function (this: object, socket: unknown) {
    (IncomingMessage as unknown as Constructor).call(this, socket);
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
