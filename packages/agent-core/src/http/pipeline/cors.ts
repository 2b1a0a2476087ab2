import type { RequestHandler } from 'express';

const ALLOWED_METHODS = 'GET,HEAD,PUT,POST,DELETE,PATCH';

/**
 * CORS of agent-http-protocol §1.4: the request origin is echoed with credentials allowed, and a
 * preflight is answered directly with 204. `allowedOrigins`, when given, restricts the echo to
 * those origins (and the front end's); by default every origin is echoed, as the protocol says.
 */
export function cors(allowedOrigins?: readonly string[]): RequestHandler {
  const restricted = allowedOrigins && allowedOrigins.length > 0 ? new Set(allowedOrigins) : null;
  return (request, response, next) => {
    const origin = request.headers.origin ?? '';
    response.vary('Origin');
    if (!restricted || restricted.has(origin)) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'x-forest-correlation-id');
    }
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) {
      next();
      return;
    }
    response.setHeader('Access-Control-Max-Age', '86400');
    response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    const requestedHeaders = request.headers['access-control-request-headers'];
    if (requestedHeaders) response.setHeader('Access-Control-Allow-Headers', requestedHeaders);
    if (request.headers['access-control-request-private-network'] === 'true') {
      response.setHeader('Access-Control-Allow-Private-Network', 'true');
    }
    response.status(204).end();
  };
}
