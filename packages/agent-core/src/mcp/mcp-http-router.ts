// The only module that uses @modelcontextprotocol/sdk: the MCP endpoint (stateless Streamable
// HTTP), the OAuth handlers and metadata, and the bearer check. Everything else in mcp/ is
// SDK-free.
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import {
  CustomOAuthError,
  InvalidTokenError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';

import { AGENT_VERSION } from '../schema/schema-meta';
import type { Logger } from '../toolkit/interfaces/logger';
import { isMcpError } from './mcp-error';
import { toolRefusal } from './tool-refusal';
import {
  DEFAULT_SCOPES,
  type McpAccessClaims,
  MCP_SCOPES,
  checkAccessToken,
} from './oauth/mcp-tokens';
import type { McpOAuth } from './oauth/mcp-oauth';
import { OAuthFailure } from './oauth/oauth-failure';
import { humanOAuthDescription } from './oauth/oauth-failure';
import { type McpTool, type ToolContext, ToolError, isToolAllowed, toolAnnotations } from './tools';

/** What the MCP routes need from the agent. */
export interface McpRouterDependencies {
  oauth: McpOAuth;
  authSecret: string;
  /** The platform URL: clients register there (`<serverUrl>/oauth/register`). */
  serverUrl: string;
  /** The public origin for a request (configured, the environment's, or the request's own). */
  publicUrl(request: Request): Promise<string>;
  tools: readonly McpTool[];
  /** Opens the context of one authenticated MCP request. */
  openContext(claims: McpAccessClaims, token: string): Promise<ToolContext>;
  logger: Logger;
  /** Largest file `uploadActionFile` accepts: the JSON body limit of `POST /mcp` follows it. */
  maxUploadBytes: number;
}

/** A request that passed {@link bearerCheck}. */
type AuthenticatedRequest = Request & { auth: AuthInfo };

const SERVER_INFO = { name: '@canopy/agent-core', version: AGENT_VERSION };

function relayed<T>(operation: () => Promise<T>): Promise<T> {
  return operation().catch((error: unknown) => {
    if (error instanceof OAuthFailure) throw new CustomOAuthError(error.error, error.message);
    throw error;
  });
}

/** The SDK's OAuth provider over {@link McpOAuth}. */
function createProvider(dependencies: McpRouterDependencies): OAuthServerProvider {
  const { oauth, authSecret } = dependencies;
  return {
    skipLocalPkceValidation: true,
    clientsStore: {
      getClient: (clientId) => relayed(() => oauth.getClient(clientId)),
    },
    async authorize(client, params, response) {
      const location = await relayed(() =>
        oauth.authorizationRedirect({
          clientId: client.client_id,
          redirectUri: params.redirectUri,
          codeChallenge: params.codeChallenge,
          state: params.state,
          scopes: params.scopes,
          resource: params.resource,
        }),
      );
      response.redirect(302, location);
    },
    challengeForAuthorizationCode() {
      throw new ServerError('PKCE is verified by the Canopy platform.');
    },
    exchangeAuthorizationCode: (client, code, verifier, redirectUri) =>
      relayed(() => oauth.exchangeCode(client.client_id, code, verifier, redirectUri)),
    exchangeRefreshToken: (client, refreshToken, scopes) =>
      relayed(() => oauth.refresh(client.client_id, refreshToken, scopes)),
    async verifyAccessToken(token): Promise<AuthInfo> {
      const claims = checkAccessToken(token, authSecret);
      if (typeof claims === 'string') throw new InvalidTokenError(claims);
      return {
        token,
        clientId: claims.clientId,
        scopes: claims.scopes,
        expiresAt: claims.exp,
        extra: { claims },
      };
    },
    async revokeToken() {
      // Tokens are stateless JWTs: revocation is accepted and does nothing (protocol §16.4).
    },
  };
}

function toolResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function toolFailure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Builds the MCP server of one request, with the tools registered for its caller. */
function buildServer(
  dependencies: McpRouterDependencies,
  context: ToolContext,
  scopes: readonly string[],
): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const names = [...context.collections.keys()];
  for (const tool of dependencies.tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input(names),
        annotations: toolAnnotations(tool),
      },
      async (input: Record<string, unknown>) => {
        if (!isToolAllowed(tool, scopes)) {
          return toolFailure(
            `The ${tool.name} tool needs the ${tool.scope} scope, and this access token was granted only ${scopes.join(' ') || 'no scope'}: log in again and grant ${tool.scope} to use it.`,
          );
        }
        try {
          return toolResult(await tool.run(input as never, context));
        } catch (error) {
          if (error instanceof ToolError || isMcpError(error)) return toolFailure(error.message);
          const refusal = toolRefusal(error);
          if (refusal !== null) return toolFailure(refusal);
          dependencies.logger('Error', `The MCP tool ${tool.name} failed.`, error);
          return toolFailure(
            `Unexpected error in ${tool.name}: ${(error as Error).message ?? String(error)}`,
          );
        }
      },
    );
  }
  return server;
}

/**
 * The bearer check of `POST /mcp` (RFC 6750 §3): a missing, invalid or expired token is a 401
 * whose challenge points to the resource metadata and names every scope the tools use (so that a
 * client asks for write and action rights, not only read); a token without `mcp:read` is a 403
 * `insufficient_scope`. Each tool then checks its own scope.
 */
function bearerCheck(provider: OAuthServerProvider, resourceMetadataUrl: string): RequestHandler {
  const refuse = (response: Response, status: number, error: string, description: string) => {
    response
      .status(status)
      .set(
        'WWW-Authenticate',
        `Bearer error="${error}", error_description="${description}", scope="${DEFAULT_SCOPES.join(' ')}", resource_metadata="${resourceMetadataUrl}"`,
      )
      .json({ error, error_description: description });
  };
  return (request, response, next) => {
    const [type, token] = (request.headers.authorization ?? '').split(' ');
    if (type?.toLowerCase() !== 'bearer' || !token) {
      refuse(response, 401, 'invalid_token', 'Missing bearer token: log in to get one.');
      return;
    }
    provider.verifyAccessToken(token).then(
      (auth) => {
        if (!auth.scopes.includes('mcp:read') && !auth.scopes.includes('mcp:admin')) {
          refuse(
            response,
            403,
            'insufficient_scope',
            'This access token lacks the mcp:read scope.',
          );
          return;
        }
        (request as AuthenticatedRequest).auth = auth;
        next();
      },
      (error: unknown) =>
        refuse(
          response,
          401,
          'invalid_token',
          error instanceof InvalidTokenError
            ? error.message
            : 'The access token is invalid or expired.',
        ),
    );
  };
}

/**
 * Keeps `error_description` a single human line (RFC 6749 §5.2) in the OAuth answers the SDK
 * writes, whether in a JSON body or in a redirect: its request validation puts a JSON dump of
 * schema issues there.
 */
function humanOAuthErrors(): RequestHandler {
  return (_request, response, next) => {
    const json = response.json.bind(response);
    response.json = (body: unknown) => {
      const answer = body as { error_description?: unknown } | null;
      if (answer && typeof answer.error_description === 'string') {
        return json({
          ...answer,
          error_description: humanOAuthDescription(answer.error_description),
        });
      }
      return json(body);
    };
    const redirect = response.redirect.bind(response) as (status: number, url: string) => void;
    response.redirect = ((status: number | string, url?: string) => {
      const [code, location] = typeof status === 'number' ? [status, url as string] : [302, status];
      try {
        const target = new URL(location);
        const description = target.searchParams.get('error_description');
        if (description !== null) {
          target.searchParams.set('error_description', humanOAuthDescription(description));
          redirect(code, target.href);
          return;
        }
      } catch {
        // Not an absolute URL: left as it is.
      }
      redirect(code, location);
    }) as Response['redirect'];
    next();
  };
}

/**
 * The MCP and OAuth routes (platform protocol §16.3), at the origin root: protected-resource and
 * authorization-server metadata, `/oauth/authorize`, `/oauth/token`, and `POST /mcp` behind a
 * bearer check that answers 401 with `WWW-Authenticate` pointing to the resource metadata.
 */
export function createMcpRouter(dependencies: McpRouterDependencies): Router {
  const provider = createProvider(dependencies);
  const router = express.Router();
  const perRequest =
    (build: (base: string) => RequestHandler): RequestHandler =>
    (request, response, next) => {
      dependencies.publicUrl(request).then((base) => build(base)(request, response, next), next);
    };

  router.use(
    '/.well-known/oauth-protected-resource/mcp',
    perRequest((base) =>
      metadataHandler({
        resource: `${base}/mcp`,
        authorization_servers: [base],
        scopes_supported: [...MCP_SCOPES],
        resource_name: 'Canopy agent',
      }),
    ),
  );
  router.use(
    '/.well-known/oauth-authorization-server',
    perRequest((base) =>
      metadataHandler({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${dependencies.serverUrl}/oauth/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        scopes_supported: [...MCP_SCOPES],
      }),
    ),
  );
  router.use('/oauth/authorize', humanOAuthErrors(), authorizationHandler({ provider }));
  router.use('/oauth/token', humanOAuthErrors(), express.json(), tokenHandler({ provider }));

  // Browser-based MCP clients call from any origin (platform protocol §16.3).
  router.use('/mcp', (request, response, next) => {
    response.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers':
        'authorization, content-type, accept, mcp-protocol-version, mcp-session-id',
      'Access-Control-Expose-Headers': 'www-authenticate, mcp-session-id',
    });
    if (request.method !== 'OPTIONS') return next();
    response.set('Access-Control-Allow-Methods', 'POST, OPTIONS').status(204).end();
  });
  router.post(
    '/mcp',
    perRequest((base) => bearerCheck(provider, `${base}/.well-known/oauth-protected-resource/mcp`)),
    express.json({
      limit: Math.max(4 * 1024 * 1024, Math.ceil((dependencies.maxUploadBytes * 4) / 3) + 65_536),
    }),
    async (request, response) => {
      const auth = (request as AuthenticatedRequest).auth;
      const claims = (auth.extra as { claims: McpAccessClaims }).claims;
      const context = await dependencies.openContext(claims, auth.token);
      const server = buildServer(dependencies, context, auth.scopes);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, request.body);
    },
  );
  router.all('/mcp', (_request, response) => {
    response
      .status(405)
      .set('Allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this stateless server takes POST.' },
        id: null,
      });
  });
  return router;
}
