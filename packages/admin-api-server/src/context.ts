import type { Request } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { LoginLimiter } from './auth/login-limiter';
import type { TokenContextCache } from './auth/token-context-cache';
import type { AdminApiServerConfig } from './config';
import type { TokenRateLimiter } from './rate-limit/token-rate-limiter';
import type { EnvironmentRow, ProjectRow } from './store/model';

/** What every route needs, built once per server. */
export interface ServerContext {
  readonly knex: Knex;
  readonly config: AdminApiServerConfig;
  readonly logger: Logger;
  readonly rateLimiter: TokenRateLimiter;
  /** Failed sign-ins and other credential attempts, per account and per address. */
  readonly loginLimiter: LoginLimiter;
  /** Application tokens' contexts, kept briefly while revocations are heard (LISTEN). */
  readonly tokenContexts?: TokenContextCache;
  /**
   * Where the server listens, once `listen()` bound it (`http://127.0.0.1:<port>`): the public
   * origin when `CANOPY_PUBLIC_URL` is not set.
   */
  readonly listening?: { origin?: string };
}

/** Who is calling, once a bearer token was verified. */
export interface RequestAuth {
  readonly kind: 'application' | 'session';
  readonly userId: number;
  /** Application tokens only. */
  readonly tokenId?: number;
  readonly scopes: readonly string[];
  /** Session tokens only: logged in through SSO. */
  readonly sso: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Request-scoped logger carrying the request id. */
      log?: Logger;
      requestId?: string;
      /**
       * The verified caller. Not named `auth`: the MCP SDK (through agent-core, which tests
       * import) declares `Request.auth` with another type.
       */
      platformAuth?: RequestAuth;
      project?: ProjectRow;
      environment?: EnvironmentRow;
    }
  }
}

/** Reads a value a previous middleware must have set, failing loudly if the route is miswired. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: the route lacks its middleware.`);
  return value;
}

/**
 * The server's public origin as configured: `CANOPY_PUBLIC_URL`, else the address `listen()`
 * bound (`http://127.0.0.1:<port>`; `localhost` for a wildcard address); `undefined` while the
 * application is not listening and no public URL is set (an in-process test, or an embedder's own
 * HTTP server). Never read from the request's `Host` header.
 */
export function configuredPublicOrigin(ctx: ServerContext): string | undefined {
  return ctx.config.publicUrl ?? ctx.listening?.origin;
}

/**
 * The server's public origin ({@link configuredPublicOrigin}); only when none is known yet, the
 * origin the request arrived on (links shown to the caller, never an issuer or redirect URI).
 */
export function publicOrigin(ctx: ServerContext, req: Request): string {
  return configuredPublicOrigin(ctx) ?? `${req.protocol}://${req.get('host')}`;
}

/** The origin of a server bound to `host`:`port` (a wildcard address is reached as localhost). */
export function listeningOrigin(host: string, port: number): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}
