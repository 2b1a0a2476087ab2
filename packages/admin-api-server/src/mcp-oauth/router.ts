import { createHash } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { formBody, jsonBody } from '../http/body';
import { authenticateEnvironment } from '../auth/authenticate-environment';
import { isApiError } from '../errors';
import type { ServerContext } from '../context';
import {
  consumeMcpCode,
  createMcpCode,
  findMcpClient,
  MCP_CLIENT_LIMITS,
  registerMcpClient,
  type McpClient,
} from '../store/mcp-oauth';
import { attemptFormLogin, clientAddress, limitedNotice, typedEmail } from '../auth/login-limiter';
import { messageBox } from '../http/platform-page';
import { readId } from '../validation/input-rules';
import { findPermissionLevel } from '../store/model';
import { authorizePage, authorizePageCsp } from './authorize-page';
import { issueMcpTokens, verifyMcpToken } from '../auth/mcp-tokens';

const SCOPES = new Set(['mcp:read', 'mcp:write', 'mcp:action', 'mcp:admin']);
const DEFAULT_SCOPE = 'mcp:read mcp:write mcp:action';
/** Granted only when the signed-in user is an admin of the environment's project. */
const ADMIN_SCOPE = 'mcp:admin';
const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'response_type',
  'state',
  'scope',
  'resource',
  'environmentId',
  'renderingId',
] as const;

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

const send = (res: Response, failure: unknown) => {
  if (failure instanceof OAuthError) {
    res.status(failure.status).json({ error: failure.error, error_description: failure.message });
  } else if (isApiError(failure) && failure.status === 401) {
    res.status(401).json({ error: 'invalid_client', error_description: failure.message });
  } else {
    throw failure;
  }
};

/** CORS for callers of any origin without credentials; preflights are answered here. */
function allowAnyOrigin(methods: string): RequestHandler {
  return (req, res, next) => {
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'content-type, mcp-protocol-version',
      'Access-Control-Max-Age': '600',
    });
    if (req.method !== 'OPTIONS') {
      next();
      return;
    }
    res.set('Access-Control-Allow-Methods', methods).status(204).end();
  };
}

/**
 * Scopes asked for (joined with `+` by the agent's redirect, or spaces), checked and normalized;
 * {@link DEFAULT_SCOPE} when none. `error` is the OAuth error of an unknown scope.
 */
function readScope(raw: unknown, error = 'invalid_scope'): string {
  if (typeof raw !== 'string' || raw.trim() === '') return DEFAULT_SCOPE;
  const scopes = raw.split(/[+ ]+/).filter(Boolean);
  const unknown = scopes.find((scope) => !SCOPES.has(scope));
  if (unknown !== undefined) {
    throw new OAuthError(400, error, `Unknown scope ${unknown}; use ${[...SCOPES].join(', ')}.`);
  }
  return [...new Set(scopes)].join(' ');
}

/**
 * What a client may be granted on this request: the scopes it asked for that it also registered
 * for (clients registered before scopes were kept get {@link DEFAULT_SCOPE}), never more.
 */
function narrowScope(asked: string, client: McpClient): string[] {
  const registered = new Set((client.scope ?? DEFAULT_SCOPE).split(' '));
  const granted = asked.split(' ').filter((scope) => registered.has(scope));
  if (granted.length === 0) {
    throw new OAuthError(
      400,
      'invalid_scope',
      `This client registered for ${[...registered].join(' ')} only; it asked for ${asked}.`,
    );
  }
  return granted;
}

/**
 * Whether a client name could pass for one of the platform's own clients (the Canopy Console,
 * canopy-cloud): any name holding "canopy" once case, accents, look-alike characters (NFKC),
 * spaces and punctuation are set aside.
 */
export function isReservedClientName(name: string): boolean {
  const folded = name
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  return folded.includes('canopy');
}

interface AuthorizeRequest {
  params: Record<string, string>;
  client: McpClient;
  environment: { id: number; projectId: number; name: string; projectName: string };
  /** The scopes the client may get (asked ∩ registered); `mcp:admin` still needs an admin. */
  scopes: string[];
}

/**
 * The platform side of MCP authorization (platform protocol §10 and §16.4): client registration
 * and lookup, the sign-in page the agent's MCP server redirects users to (the agent's
 * `forestAppUrl` / front-end URL must be this server), and the token endpoint the MCP server
 * relays to. Codes need PKCE (S256); tokens are JWTs signed with the server's signing keys.
 */
export function mcpOAuthRouter(ctx: ServerContext): Router {
  const router = express.Router();
  const forms = formBody();
  const json = jsonBody();
  // A registration is a few URLs: anything larger is refused before it is parsed.
  const registrationJson = jsonBody('32kb');

  async function readAuthorize(source: Record<string, unknown>): Promise<AuthorizeRequest> {
    const params: Record<string, string> = {};
    for (const name of AUTHORIZE_PARAMS) {
      if (typeof source[name] === 'string') params[name] = source[name];
    }
    const client = params.client_id ? await findMcpClient(ctx.knex, params.client_id) : undefined;
    if (!client) throw new OAuthError(400, 'invalid_client', 'Unknown client_id.');
    if (!params.redirect_uri || !client.redirect_uris.includes(params.redirect_uri)) {
      throw new OAuthError(
        400,
        'invalid_request',
        'redirect_uri is not registered for this client.',
      );
    }
    if (!params.code_challenge || params.code_challenge_method !== 'S256') {
      throw new OAuthError(
        400,
        'invalid_request',
        'A code_challenge with method S256 is required.',
      );
    }
    const environmentId = readId(params.environmentId);
    const environment =
      environmentId !== undefined
        ? await ctx
            .knex('environments as e')
            .join('projects as p', 'p.id', 'e.project_id')
            .where('e.id', environmentId)
            .first('e.id', 'e.project_id as projectId', 'e.name', 'p.name as projectName')
        : undefined;
    if (!environment) {
      throw new OAuthError(400, 'invalid_request', 'environmentId names no environment.');
    }
    return { params, client, environment, scopes: narrowScope(readScope(params.scope), client) };
  }

  // Browser-based MCP clients register from their own origin (the MCP authorization spec's
  // dynamic registration): any origin may call, without credentials (no cookies are read here).
  router.use('/oauth/register', allowAnyOrigin('GET, POST, OPTIONS'));

  router.post('/oauth/register', registrationJson, async (req, res) => {
    const address = clientAddress(req);
    const wait = await ctx.loginLimiter.registrations.blockedFor(address);
    if (wait !== undefined) {
      res.set('Retry-After', String(wait));
      send(
        res,
        new OAuthError(
          429,
          'too_many_requests',
          `Too many client registrations from this address; retry in ${wait} second(s).`,
        ),
      );
      return;
    }
    const body = (req.body ?? {}) as {
      redirect_uris?: unknown;
      client_name?: unknown;
      scope?: unknown;
    };
    const uris = body.redirect_uris;
    const valid = (uri: unknown) =>
      typeof uri === 'string' &&
      uri.length <= MCP_CLIENT_LIMITS.maxRedirectUriLength &&
      URL.canParse(uri) &&
      /^https?:$/.test(new URL(uri).protocol);
    if (
      !Array.isArray(uris) ||
      uris.length === 0 ||
      uris.length > MCP_CLIENT_LIMITS.maxRedirectUris ||
      !uris.every(valid)
    ) {
      send(
        res,
        new OAuthError(
          400,
          'invalid_redirect_uri',
          `redirect_uris must be a list of 1 to ${MCP_CLIENT_LIMITS.maxRedirectUris} http(s) URLs of at most ${MCP_CLIENT_LIMITS.maxRedirectUriLength} characters.`,
        ),
      );
      return;
    }
    const name = body.client_name;
    if (
      name !== undefined &&
      (typeof name !== 'string' || name.length > MCP_CLIENT_LIMITS.maxClientNameLength)
    ) {
      send(
        res,
        new OAuthError(
          400,
          'invalid_client_metadata',
          `client_name must be a string of at most ${MCP_CLIENT_LIMITS.maxClientNameLength} characters.`,
        ),
      );
      return;
    }
    if (typeof name === 'string' && isReservedClientName(name)) {
      send(
        res,
        new OAuthError(
          400,
          'invalid_client_metadata',
          'client_name must not name Canopy: that name belongs to the platform’s own clients.',
        ),
      );
      return;
    }
    let scope: string;
    try {
      if (body.scope !== undefined && typeof body.scope !== 'string') {
        throw new OAuthError(400, 'invalid_client_metadata', 'scope must be a string.');
      }
      scope = readScope(body.scope, 'invalid_client_metadata');
    } catch (failure) {
      send(res, failure);
      return;
    }
    await ctx.loginLimiter.registrations.record(address);
    const client = await registerMcpClient(ctx.knex, {
      redirectUris: uris as string[],
      scope,
      registeredFrom: address,
      ...(typeof name === 'string' ? { clientName: name } : {}),
    });
    if (!client) {
      res.set('Retry-After', '3600');
      send(
        res,
        new OAuthError(
          429,
          'too_many_requests',
          'This server holds as many OAuth clients as it keeps; unused ones expire, retry later.',
        ),
      );
      return;
    }
    res.status(201).json(client);
  });

  router.get('/oauth/register/:clientId', async (req, res) => {
    const client = await findMcpClient(ctx.knex, String(req.params.clientId));
    if (!client) {
      send(
        res,
        new OAuthError(404, 'invalid_client', `No OAuth client ${String(req.params.clientId)}.`),
      );
      return;
    }
    res.json(client);
  });

  /** The consent page of `request`, allowed to send the browser on to the client's redirect URI. */
  const showAuthorizePage = (
    res: Response,
    request: AuthorizeRequest,
    failed: { alert?: string; email?: string } = {},
  ) => {
    res
      .set('Content-Security-Policy', authorizePageCsp(request.params.redirect_uri!))
      .type('html')
      .send(
        authorizePage({
          params: request.params,
          client: request.client,
          redirectUri: request.params.redirect_uri!,
          scopes: request.scopes,
          environment: request.environment,
          ...failed,
        }),
      );
  };

  router.get('/oauth/authorize', async (req, res) => {
    try {
      showAuthorizePage(res, await readAuthorize(req.query as Record<string, unknown>));
    } catch (failure) {
      send(res, failure);
    }
  });

  router.post('/oauth/authorize', forms, async (req, res) => {
    let request: AuthorizeRequest;
    try {
      request = await readAuthorize((req.body ?? {}) as Record<string, unknown>);
    } catch (failure) {
      send(res, failure);
      return;
    }
    const outcome = await attemptFormLogin(ctx.loginLimiter, req);
    const user = outcome.kind === 'signed-in' ? outcome.user : undefined;
    const teams: number[] = user
      ? await ctx
          .knex('project_membership_teams as mt')
          .join('project_memberships as m', 'm.id', 'mt.membership_id')
          .where({ 'm.project_id': request.environment.projectId, 'm.user_id': user.id })
          .orderBy('mt.team_id')
          .pluck('mt.team_id')
      : [];
    const asked = readId(request.params.renderingId);
    const renderingId =
      request.params.renderingId === undefined ? teams[0] : teams.find((id) => id === asked);
    if (!user || renderingId === undefined) {
      const alert =
        outcome.kind === 'limited'
          ? limitedNotice(outcome.retryAfterSeconds)
          : messageBox(
              user
                ? 'This account may not use this agent (no team of theirs in its project, or not the rendering asked for).'
                : 'Wrong email or password.',
            );
      if (outcome.kind === 'limited') res.set('Retry-After', String(outcome.retryAfterSeconds));
      res.status(outcome.kind === 'limited' ? 429 : 401);
      showAuthorizePage(res, request, { alert, email: typedEmail(req) });
      return;
    }
    // mcp:admin (every tool) only when an admin of the project authorizes the client.
    const level = await findPermissionLevel(ctx.knex, request.environment.projectId, user.id);
    const scope = request.scopes
      .filter((granted) => granted !== ADMIN_SCOPE || level === 'admin')
      .join(' ');
    if (scope === '') {
      res.status(403);
      showAuthorizePage(res, request, {
        alert: messageBox(
          `Only an admin of project ${request.environment.projectName} may grant ${ADMIN_SCOPE}, the only scope this client asked for.`,
        ),
        email: typedEmail(req),
      });
      return;
    }
    const code = await createMcpCode(ctx.knex, {
      clientId: request.client.client_id,
      environmentId: request.environment.id,
      userId: user.id,
      renderingId,
      redirectUri: request.params.redirect_uri!,
      codeChallenge: request.params.code_challenge!,
      scope,
    });
    const target = new URL(request.params.redirect_uri!);
    target.searchParams.set('code', code);
    if (request.params.state !== undefined) target.searchParams.set('state', request.params.state);
    res.redirect(302, target.href);
  });

  // The env secret is checked before the body is read.
  const agent: RequestHandler = async (req, res, next) => {
    try {
      res.locals.environment = await authenticateEnvironment(ctx.knex, req);
    } catch (failure) {
      send(res, failure);
      return;
    }
    next();
  };

  router.post('/oauth/token', agent, json, forms, async (req: Request, res) => {
    try {
      const environment = res.locals.environment as { id: number; projectId: number };
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (body.grant_type === 'authorization_code') {
        const grant = await consumeMcpCode(ctx.knex, String(body.code));
        if (!grant)
          throw new OAuthError(
            400,
            'invalid_grant',
            'The authorization code is unknown, used or expired.',
          );
        if (
          grant.clientId !== body.client_id ||
          grant.redirectUri !== body.redirect_uri ||
          grant.environmentId !== environment.id
        ) {
          throw new OAuthError(
            400,
            'invalid_grant',
            'client_id, redirect_uri or environment does not match the code.',
          );
        }
        const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge) {
          throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed (code_verifier).');
        }
        res.set('Cache-Control', 'no-store').json(issueMcpTokens(ctx.config.signingKeys, grant));
        return;
      }
      if (body.grant_type === 'refresh_token') {
        const grant = verifyMcpToken(
          ctx.config.signingKeys,
          String(body.refresh_token),
          'mcp-refresh',
        );
        if (!grant || grant.clientId !== body.client_id || grant.environmentId !== environment.id) {
          throw new OAuthError(
            400,
            'invalid_grant',
            'The refresh token is invalid, expired, or not issued to this client.',
          );
        }
        const member = await ctx
          .knex('project_memberships')
          .where({ project_id: environment.projectId, user_id: grant.userId })
          .first('id');
        if (!member)
          throw new OAuthError(
            400,
            'invalid_grant',
            'The user is no longer a member of this project.',
          );
        const asked = Array.isArray(body.scopes) ? body.scopes.map(String) : undefined;
        const granted = grant.scope.split(' ');
        if (asked?.some((scope) => !granted.includes(scope))) {
          throw new OAuthError(
            400,
            'invalid_scope',
            `Only ${grant.scope} may be asked for on refresh.`,
          );
        }
        res.set('Cache-Control', 'no-store').json(
          issueMcpTokens(ctx.config.signingKeys, {
            ...grant,
            scope: asked?.join(' ') ?? grant.scope,
          }),
        );
        return;
      }
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token.',
      );
    } catch (failure) {
      send(res, failure);
    }
  });

  return router;
}
