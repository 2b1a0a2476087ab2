import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ApiError, forbidden, projectNotAccessible, unauthorized } from '../errors';
import type { RequestAuth, ServerContext } from '../context';
import type { EnvironmentRow, ProjectRow } from '../store/model';
import { chargeRequest } from '../rate-limit';
import { findTokenContext, touchApplicationToken } from '../store/application-tokens';
import {
  bearerToken,
  hashTokenId,
  verifyPlatformToken,
  type ApplicationTokenClaims,
} from './platform-tokens';
import { hasScope, type Scope } from './scopes';

const TOUCH_INTERVAL_MS = 60_000;

/** What an authenticated application token gives a route. */
export interface ApplicationTokenAccess {
  readonly project: ProjectRow;
  readonly auth: RequestAuth;
  /** When the route names an environment. */
  readonly environment?: EnvironmentRow;
}

/** Where a header goes: express's response and node's both have `setHeader`. */
type HeaderSink = Pick<ServerResponse, 'setHeader'>;

/**
 * The checks of {@link requireApplicationToken} for one request, in its order, without express:
 * the `Authorization` header, the route's project and environment names, and the response that
 * gets the rate-limit headers. Throws the same {@link ApiError}s.
 */
export async function authenticateApplicationToken(
  ctx: ServerContext,
  scope: Scope,
  request: {
    authorization: string | undefined;
    projectName: string;
    environmentName: string | undefined;
  },
  res: HeaderSink,
): Promise<ApplicationTokenAccess> {
  const claims = verifyPlatformToken<ApplicationTokenClaims>(
    bearerToken(request.authorization),
    ctx.config.signingKeys,
    'application',
  );
  const { projectName, environmentName } = request;
  const tokenIdHash = tokenIdHashOf(claims);
  const load = () => findTokenContext(ctx.knex, tokenIdHash, environmentName);
  const row = ctx.tokenContexts
    ? await ctx.tokenContexts.get(tokenIdHash, environmentName, load)
    : await load();
  if (!row) throw unauthorized('The bearer token is not known to this server.');
  if (row.revoked_at) {
    throw unauthorized(`The bearer token was revoked at ${row.revoked_at.toISOString()}.`);
  }
  if (row.expires_at.getTime() <= Date.now()) {
    throw unauthorized(`The bearer token expired at ${row.expires_at.toISOString()}.`);
  }
  await chargeRequest(ctx.rateLimiter, res, `token:${row.id}`);

  // Another project's name and an unknown one get the same answer: no probing of names.
  if (projectName !== row.project_name) throw projectNotAccessible(projectName);
  if (row.permission_level !== 'admin') {
    throw forbidden(
      'The user who created this token no longer holds the Admin role on the project.',
    );
  }
  if (row.project_sso_enabled && !row.created_with_sso) {
    throw forbidden(
      `Project "${projectName}" uses SSO: use a token created while logged in through SSO.`,
    );
  }
  if (!hasScope(row.scopes, scope)) {
    throw forbidden(`This token lacks the "${scope}" scope (it has: ${row.scopes.join(', ')}).`);
  }
  const project: ProjectRow = {
    id: row.project_id,
    name: row.project_name,
    sso_enabled: row.project_sso_enabled,
  };
  const auth: RequestAuth = {
    kind: 'application',
    userId: row.user_id,
    tokenId: row.id,
    scopes: row.scopes,
    sso: row.created_with_sso,
  };
  let environment: EnvironmentRow | undefined;
  if (environmentName !== undefined) {
    if (row.environment_id === null || row.environment_type === null) {
      throw new ApiError(
        404,
        'environment_not_found',
        `Project "${projectName}" has no environment named "${environmentName}" (names are case sensitive).`,
      );
    }
    environment = {
      id: row.environment_id,
      project_id: row.project_id,
      name: environmentName,
      type: row.environment_type,
    };
  }
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
    await touchApplicationToken(ctx.knex, row.id);
    // The row may be cached: the next touch is due a minute from now, not on the next request.
    row.last_used_at = new Date();
  }
  return { project, auth, environment };
}

/** The stored SHA-256 of a verified token's id, computed once per verified token. */
const tokenIdHashes = new WeakMap<ApplicationTokenClaims, string>();
function tokenIdHashOf(claims: ApplicationTokenClaims): string {
  let hash = tokenIdHashes.get(claims);
  if (hash === undefined) {
    hash = hashTokenId(claims.jti);
    tokenIdHashes.set(claims, hash);
  }
  return hash;
}

/**
 * Authenticates an application token for a `/v1/project/:projectName[/environment/:environmentName]`
 * route, in this order: signature and expiry (401), the stored row — revoked or unknown tokens
 * fail here (401; on every replica within a second of the revocation), the per-token rate limit
 * (429), the token's project
 * by case-sensitive name (404, the same for an unknown project and another one), the environment (404), its creator still an Admin, SSO
 * and the scope (403). The stored state is read in one query, and kept a few seconds in
 * `ctx.tokenContexts` while every replica hears revocations and other access changes at once
 * (see `TokenContextCache`).
 */
export function requireApplicationToken(ctx: ServerContext, scope: Scope): RequestHandler {
  return async (req, res, next) => {
    const access = await authenticateApplicationToken(
      ctx,
      scope,
      {
        authorization: req.get('authorization'),
        projectName: String(req.params.projectName),
        environmentName:
          req.params.environmentName === undefined ? undefined : String(req.params.environmentName),
      },
      res,
    );
    req.project = access.project;
    req.platformAuth = access.auth;
    if (access.environment) req.environment = access.environment;
    next();
  };
}
