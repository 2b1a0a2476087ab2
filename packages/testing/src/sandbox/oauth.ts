import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import type { SandboxUser } from './types';

/** An OAuth client registered by an MCP client (RFC 7591). */
export interface SandboxOAuthClient {
  client_id: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  client_name?: string;
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
}

/** Who the sandbox's login page logs in, on which rendering. */
export interface SandboxOAuthLogin {
  userId: number;
  renderingId: number;
  /** Scopes granted (space-separated); default: those asked for, else `mcp:read mcp:write mcp:action`. */
  scope?: string;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  login: SandboxOAuthLogin;
  expiresAt: number;
}

/** What the OAuth routes read from the rest of the sandbox. */
export interface OAuthRouteContext {
  users(): SandboxUser[];
  teamOf(renderingId: number): string;
  /** Throws unless the request carries a valid env secret. */
  checkSecret(request: Request): void;
}

/** The claims of a platform access token the sandbox issued. */
export interface PlatformTokenClaims {
  userId: number;
  scope: string;
  meta: { renderingId: number };
}

/** What tests can change and read. */
export interface SandboxOAuth {
  login: SandboxOAuthLogin;
  /** Lifetimes of the platform tokens (seconds). */
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  readonly clients: Map<string, SandboxOAuthClient>;
}

const DEFAULT_SCOPE = 'mcp:read mcp:write mcp:action';

function fail(response: Response, status: number, error: string, description: string): void {
  response.status(status).json({ error, error_description: description });
}

/**
 * The platform side of the MCP OAuth flow (platform protocol §10, §16.4): dynamic client
 * registration, client lookup, a login page that logs `login.userId` in at once and redirects
 * with a code, the token endpoint (PKCE S256 checked here, tokens are JWTs with `exp`, `scope`
 * and `meta.renderingId`), and the user info of a platform token.
 */
export function mountOAuthRoutes(
  app: Express,
  context: OAuthRouteContext,
): SandboxOAuth & { verifyAccessToken(token: string): PlatformTokenClaims | null } {
  const secret = randomBytes(32).toString('hex');
  const codes = new Map<string, PendingCode>();
  const state: SandboxOAuth = {
    login: { userId: 1, renderingId: 1 },
    accessTokenSeconds: 3600,
    refreshTokenSeconds: 8 * 24 * 3600,
    clients: new Map(),
  };

  const issue = (clientId: string, login: SandboxOAuthLogin, scope: string) => ({
    access_token: jwt.sign(
      { userId: login.userId, scope, meta: { renderingId: login.renderingId }, clientId },
      secret,
      { expiresIn: state.accessTokenSeconds, jwtid: randomUUID() },
    ),
    refresh_token: jwt.sign({ type: 'refresh', clientId, login, scope }, secret, {
      expiresIn: state.refreshTokenSeconds,
      jwtid: randomUUID(),
    }),
    expires_in: state.accessTokenSeconds,
    token_type: 'Bearer',
    scope,
  });

  app.post('/oauth/register', (request, response) => {
    const body = (request.body ?? {}) as { redirect_uris?: unknown; client_name?: unknown };
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || uris.some((uri) => !URL.canParse(uri))) {
      fail(
        response,
        400,
        'invalid_redirect_uri',
        'redirect_uris must be a non-empty list of URLs.',
      );
      return;
    }
    const client: SandboxOAuthClient = {
      client_id: `mcp-client-${state.clients.size + 1}`,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      redirect_uris: uris as string[],
      ...(typeof body.client_name === 'string' ? { client_name: body.client_name } : {}),
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
    state.clients.set(client.client_id, client);
    response.status(201).json(client);
  });

  app.get('/oauth/register/:clientId', (request, response) => {
    const client = state.clients.get(request.params.clientId);
    if (!client) {
      fail(response, 404, 'invalid_client', `No OAuth client ${request.params.clientId}.`);
      return;
    }
    response.json(client);
  });

  // The platform front end's login page: the configured user logs in at once.
  app.get('/oauth/authorize', (request, response) => {
    const query = request.query as Record<string, string | undefined>;
    const client = state.clients.get(query.client_id ?? '');
    if (!client || !query.redirect_uri || !client.redirect_uris.includes(query.redirect_uri)) {
      fail(response, 400, 'invalid_client', 'Unknown client or unregistered redirect_uri.');
      return;
    }
    if (!query.code_challenge || query.code_challenge_method !== 'S256') {
      fail(response, 400, 'invalid_request', 'A S256 code_challenge is required.');
      return;
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, {
      clientId: client.client_id,
      redirectUri: query.redirect_uri,
      codeChallenge: query.code_challenge,
      scope: state.login.scope ?? (query.scope ? query.scope.split('+').join(' ') : DEFAULT_SCOPE),
      login: { ...state.login },
      expiresAt: Date.now() + 60_000,
    });
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', code);
    if (query.state) target.searchParams.set('state', query.state);
    response.redirect(302, target.href);
  });

  app.post('/oauth/token', (request, response) => {
    context.checkSecret(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.grant_type === 'authorization_code') {
      const pending = codes.get(String(body.code));
      codes.delete(String(body.code));
      if (!pending || pending.expiresAt < Date.now()) {
        fail(response, 400, 'invalid_grant', 'The authorization code is unknown or expired.');
        return;
      }
      if (pending.clientId !== body.client_id || pending.redirectUri !== body.redirect_uri) {
        fail(response, 400, 'invalid_grant', 'client_id or redirect_uri does not match the code.');
        return;
      }
      const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (challenge !== pending.codeChallenge) {
        fail(response, 400, 'invalid_grant', 'PKCE verification failed.');
        return;
      }
      response.json(issue(pending.clientId, pending.login, pending.scope));
      return;
    }
    if (body.grant_type === 'refresh_token') {
      let claims: { type?: string; clientId?: string; login?: SandboxOAuthLogin; scope?: string };
      try {
        claims = jwt.verify(String(body.refresh_token), secret) as typeof claims;
      } catch {
        fail(response, 400, 'invalid_grant', 'The refresh token is invalid or expired.');
        return;
      }
      if (
        claims.type !== 'refresh' ||
        typeof claims.clientId !== 'string' ||
        claims.clientId !== body.client_id ||
        !claims.login
      ) {
        fail(response, 400, 'invalid_grant', 'The refresh token was not issued to this client.');
        return;
      }
      response.json(issue(claims.clientId, claims.login, claims.scope ?? DEFAULT_SCOPE));
      return;
    }
    fail(
      response,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token.',
    );
  });

  app.get('/liana/v2/renderings/:renderingId/authorization', (request, response) => {
    context.checkSecret(request);
    let claims: { userId?: number; meta?: { renderingId?: number } };
    try {
      claims = jwt.verify(String(request.get('forest-token')), secret) as typeof claims;
    } catch {
      response.status(401).json({ errors: [{ detail: 'The forest-token is invalid.' }] });
      return;
    }
    const renderingId = Number(request.params.renderingId);
    const user = context.users().find((candidate) => candidate.id === claims.userId);
    if (!user || claims.meta?.renderingId !== renderingId) {
      response
        .status(403)
        .json({ errors: [{ detail: 'The user is not allowed on this rendering.' }] });
      return;
    }
    response.json({
      data: {
        type: 'users',
        id: String(user.id),
        attributes: {
          email: user.email,
          first_name: user.firstName,
          last_name: user.lastName,
          teams: [context.teamOf(renderingId)],
          role: `role ${user.roleId}`,
          permission_level: user.permissionLevel,
          tags: Object.entries(user.tags ?? {}).map(([key, value]) => ({ key, value })),
        },
      },
    });
  });

  return Object.assign(state, {
    verifyAccessToken(token: string): PlatformTokenClaims | null {
      try {
        const claims = jwt.verify(token, secret) as Partial<PlatformTokenClaims> & {
          type?: string;
        };
        return claims.type === undefined && typeof claims.userId === 'number'
          ? (claims as PlatformTokenClaims)
          : null;
      } catch {
        return null;
      }
    },
  });
}
