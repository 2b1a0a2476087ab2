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
