import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

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
 * Both are subclasses of node's classes, whose prototypes take the place of `app.request` and
 * `app.response` (express's prototypes of requests and responses, which code may still extend).
 * Objects built by a plain function calling node's constructor started in V8's dictionary mode
 * (node's constructors store more symbol-keyed properties than V8 keeps fast on an object a
 * foreign constructor made); a subclass instance has node's own shape.
 */
export function expressServerOptions(app: Express): ServerOptions {
  class Request extends IncomingMessage {
    constructor(socket: Socket) {
      super(socket);
      const self = this as unknown as Record<string, unknown>;
      // Express's (application.js and the router), in the order it sets them.
      self.res = undefined;
      self.next = undefined;
      self.baseUrl = '';
      self.originalUrl = '';
      self.params = undefined;
      self.route = undefined;
      // The pipeline's (src/context.ts).
      self.requestId = undefined;
      self.log = undefined;
      self.project = undefined;
      self.platformAuth = undefined;
      self.environment = undefined;
    }
  }
  class Response extends ServerResponse {}
  app.request = adoptPrototype(Request, app.request);
  app.response = adoptPrototype(Response, app.response);
  return { IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse };
}

/**
 * Makes `subclass.prototype` the application's prototype in place of `current` (express's
 * `app.request` / `app.response`: its methods and `app`, over node's prototype as before), and
 * returns it, for the application to use from now on.
 */
function adoptPrototype<T extends object>(subclass: { prototype: object }, current: T): T {
  Object.setPrototypeOf(subclass.prototype, Object.getPrototypeOf(current));
  Object.defineProperties(subclass.prototype, Object.getOwnPropertyDescriptors(current));
  return subclass.prototype as T;
}
