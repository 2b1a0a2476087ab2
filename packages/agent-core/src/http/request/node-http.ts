import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request as the routes read it: node's own object, which express's `Request` extends. The
 * route table serves node's objects as they come from the standalone server, so no route may
 * rely on express's request or response API.
 */
export type HttpRequest = IncomingMessage & {
  /** Set by express (the URL before mount points were stripped); absent on node's own objects. */
  originalUrl?: string;
};

/** A response as the routes write it: node's own object (express's `Response` extends it). */
export type HttpResponse = ServerResponse;

/** The parsed JSON body the body stage set on `request` (`undefined` when none was read). */
export function requestBody(request: HttpRequest): unknown {
  return (request as HttpRequest & { body?: unknown }).body;
}
