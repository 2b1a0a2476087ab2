import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET,HEAD,PUT,POST,DELETE,PATCH';

/**
 * CORS for one request. Returns `true` when it answered a preflight (the request is over).
 */
export type CorsStep = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * CORS of the agent as an allow-list: a request whose `Origin` is one of `allowedOrigins` (the
 * Console's origin and those of the `allowedOrigins` agent option) gets it back in
 * `Access-Control-Allow-Origin`, with credentials allowed and the headers of agent-http-protocol
 * §1.4; any other origin gets no CORS header at all, so a browser keeps its page from reading the
 * answer (and from sending anything but a simple request). A preflight is answered with 204
 * either way. No origin is ever reflected because a page sent it.
 */
export function corsStep(allowedOrigins: readonly string[] = []): CorsStep {
  const allowed = new Set(allowedOrigins);
  return (request, response) => {
    const origin = request.headers.origin;
    addVaryOrigin(response);
    const permitted = origin !== undefined && allowed.has(origin);
    if (permitted) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'x-forest-correlation-id, ETag');
    }
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) {
      return false;
    }
    if (permitted) {
      response.setHeader('Access-Control-Max-Age', '86400');
      response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const requestedHeaders = request.headers['access-control-request-headers'];
      if (requestedHeaders) response.setHeader('Access-Control-Allow-Headers', requestedHeaders);
      if (request.headers['access-control-request-private-network'] === 'true') {
        response.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
    }
    response.statusCode = 204;
    response.end();
    return true;
  };
}

/** Whether `request` comes from a page of an allowed origin (see {@link corsStep}). */
export function isAllowedOrigin(
  request: IncomingMessage,
  allowedOrigins: readonly string[] = [],
): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && allowedOrigins.includes(origin);
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
