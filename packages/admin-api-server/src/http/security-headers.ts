import type { ServerResponse } from 'node:http';
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

/** What one helmet middleware does to a response: the headers it sets and those it removes. */
interface HeaderChanges {
  readonly set: readonly (readonly [string, string])[];
  readonly removed: readonly string[];
}

/**
 * Runs a helmet middleware once on a recording response and returns what it did. Helmet's headers
 * depend on its options only (no CSP directive here is a function of the request), so the
 * recording holds for every request.
 */
function recordHeaders(middleware: RequestHandler): HeaderChanges {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let passed = false;
  middleware(
    {} as unknown as Parameters<RequestHandler>[0],
    recorder as unknown as Parameters<RequestHandler>[1],
    (error?: unknown) => {
      if (error) throw error;
      passed = true;
    },
  );
  if (!passed) throw new Error('helmet did not call next() synchronously');
  return { set, removed };
}

function apply(res: ServerResponse, changes: HeaderChanges): void {
  for (const name of changes.removed) res.removeHeader(name);
  for (const [name, value] of changes.set) res.setHeader(name, value);
}

/**
 * Helmet's security headers, with HSTS and the CSP `upgrade-insecure-requests` directive only on
 * requests served over TLS (`req.secure`: HTTPS, or `X-Forwarded-Proto: https` from a trusted
 * proxy). On plain HTTP they would make browsers rewrite the login forms' posts to https:// and
 * break them, and HSTS means nothing there. Each variant is helmet's own output, recorded once
 * when the app is built and then set in one step per request.
 */
export function securityHeaders(): RequestHandler {
  const overTls = recordHeaders(overTlsHeaders());
  const plain = recordHeaders(plainHeaders());
  return (req, res, next) => {
    apply(res, req.secure ? overTls : plain);
    next();
  };
}
