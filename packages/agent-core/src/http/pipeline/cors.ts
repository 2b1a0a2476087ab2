import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RequestHandler } from 'express';

const ALLOWED_METHODS = 'GET,HEAD,PUT,POST,DELETE,PATCH';

/**
 * CORS of agent-http-protocol §1.4 for one request, as a function of the allowed origins (`null`:
 * every origin). Returns `true` when it answered a preflight (the request is over).
 */
export type CorsStep = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * CORS of agent-http-protocol §1.4: the request origin is echoed with credentials allowed, and a
 * preflight is answered directly with 204. `allowedOrigins`, when given, restricts the echo to
 * those origins (and the front end's); by default every origin is echoed, as the protocol says.
 */
export function corsStep(allowedOrigins?: readonly string[]): CorsStep {
  const restricted = allowedOrigins && allowedOrigins.length > 0 ? new Set(allowedOrigins) : null;
  return (request, response) => {
    const origin = request.headers.origin ?? '';
    addVaryOrigin(response);
    if (!restricted || restricted.has(origin)) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'x-forest-correlation-id');
    }
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) {
      return false;
    }
    response.setHeader('Access-Control-Max-Age', '86400');
    response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    const requestedHeaders = request.headers['access-control-request-headers'];
    if (requestedHeaders) response.setHeader('Access-Control-Allow-Headers', requestedHeaders);
    if (request.headers['access-control-request-private-network'] === 'true') {
      response.setHeader('Access-Control-Allow-Private-Network', 'true');
    }
    response.statusCode = 204;
    response.end();
    return true;
  };
}

/** The CORS stage as an express middleware. */
export function cors(allowedOrigins?: readonly string[]): RequestHandler {
  const step = corsStep(allowedOrigins);
  return (request, response, next) => {
    if (!step(request, response)) next();
  };
}

/** Adds `Origin` to `Vary` (what express's `res.vary('Origin')` does, without parsing when unset). */
function addVaryOrigin(response: ServerResponse): void {
  const current = response.getHeader('Vary');
  if (current === undefined) {
    response.setHeader('Vary', 'Origin');
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  if (text === '*') return;
  const present = text.split(',').some((item) => {
    const name = item.trim().toLowerCase();
    return name === 'origin' || name === '*';
  });
  if (!present) response.setHeader('Vary', text ? `${text}, Origin` : 'Origin');
}
