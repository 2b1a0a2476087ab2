import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Helmet over TLS (with HSTS and `upgrade-insecure-requests`). */
function overTlsHeaders() {
  return helmet();
}

/** Helmet on plain HTTP: no HSTS, no `upgrade-insecure-requests`. */
function plainHeaders() {
  return helmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
}

/**
 * Helmet's security headers, with HSTS and the CSP `upgrade-insecure-requests` directive only on
 * requests served over TLS (`req.secure`: HTTPS, or `X-Forwarded-Proto: https` from a trusted
 * proxy). On plain HTTP they would make browsers rewrite the login forms' posts to https:// and
 * break them, and HSTS means nothing there.
 */
export function securityHeaders(): RequestHandler {
  const overTls = overTlsHeaders();
  const plain = plainHeaders();
  return (req, res, next) => (req.secure ? overTls : plain)(req, res, next);
}

/**
 * The headers {@link securityHeaders} sets on a plain-HTTP request, as one list computed once by
 * running helmet itself (its headers do not depend on the request: no CSP directive is a
 * function), for the hot routes (src/http/hot-routes.ts), which set them without running helmet.
 */
export function plainSecurityHeaders(): readonly (readonly [string, string])[] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name, String(value)]);
      return recorder;
    },
    removeHeader() {},
  };
  let passed = false;
  plainHeaders()(
    { secure: false } as unknown as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
      passed = true;
    },
  );
  if (!passed) throw new Error('helmet did not call next() synchronously');
  return headers;
}
