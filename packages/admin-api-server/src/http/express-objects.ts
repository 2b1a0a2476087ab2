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
 * Node's own `IncomingMessage` is a plain constructor function, which the request's calls as its
 * parent; the response's class extends `ServerResponse` and takes the place of `app.response`
 * (express's documented prototype of responses, which code may still extend).
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
  // The response is a subclass of node's, whose prototype becomes the application's `response`
  // (express's response methods and `app`, over node's `ServerResponse.prototype` as before).
  // Built by a plain function calling `ServerResponse`, a response started in V8's dictionary
  // mode: node's constructor stores more symbol-keyed properties than V8 keeps fast on an
  // object a foreign constructor made. A subclass instance is node's own shape.
  class Response extends ServerResponse {}
  Object.setPrototypeOf(Response.prototype, Object.getPrototypeOf(app.response));
  Object.defineProperties(Response.prototype, Object.getOwnPropertyDescriptors(app.response));
  app.response = Response.prototype as typeof app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
