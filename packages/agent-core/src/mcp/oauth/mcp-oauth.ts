import jwt from 'jsonwebtoken';

import { OAuthFailure } from './oauth-failure';
import { type IssuedTokens, type TokenLimits, issueTokens, verifyRefreshToken } from './mcp-tokens';
import type { PlatformOAuthClient, RegisteredClient } from './platform-oauth-client';

/** The parameters of an authorization request, validated by the SDK's handler. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scopes?: string[];
  resource?: URL;
}

/**
 * The OAuth 2.1 façade of the MCP server (platform protocol §16.4), independent of the SDK: the
 * platform is the real authorization server (login, PKCE check, registration); this side
 * redirects to it, relays the grants and issues its own tokens, signed with the auth secret.
 */
export class McpOAuth {
  constructor(
    private readonly platform: PlatformOAuthClient,
    private readonly appUrl: string,
    private readonly limits: TokenLimits,
    private readonly authSecret: string,
    private readonly allowedClientDomains: readonly string[] | null = null,
  ) {}

  /**
   * The client registered on the platform, or `undefined` (an `invalid_client` for the caller)
   * when the platform does not know it or, with an allowlist of domains, when one of its
   * redirect URIs is not http(s) on a listed domain or one of its subdomains.
   */
  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    const client = await this.platform.getClient(clientId);
    const domains = this.allowedClientDomains;
    if (!client || !domains) return client;
    const allowed = (uri: string) => {
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        return false;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
      return domains.some(
        (domain) => url.hostname === domain || url.hostname.endsWith(`.${domain}`),
      );
    };
    return client.redirect_uris.every(allowed) ? client : undefined;
  }

  /**
   * Where to send the browser: the platform front end's login with the request's parameters and
   * the environment id (scopes joined with `+`, protocol §18), or back to the client with
   * `error=server_error` when the environment cannot be read.
   */
  async authorizationRedirect(request: AuthorizationRequest): Promise<string> {
    let environmentId: string;
    try {
      environmentId = (await this.platform.environment()).id;
    } catch {
      const back = new URL(request.redirectUri);
      back.searchParams.set('error', 'server_error');
      back.searchParams.set('error_description', 'The Canopy environment could not be read.');
      if (request.state) back.searchParams.set('state', request.state);
      return back.href;
    }
    const url = new URL(`${this.appUrl}/oauth/authorize`);
    const parameters: Record<string, string | undefined> = {
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      response_type: 'code',
      client_id: request.clientId,
      state: request.state,
      scope: request.scopes && request.scopes.length > 0 ? request.scopes.join('+') : undefined,
      resource: request.resource?.href,
      environmentId,
    };
    for (const [key, value] of Object.entries(parameters)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url.href;
  }

  /** Exchanges an authorization code (PKCE checked by the platform) for an MCP token pair. */
  async exchangeCode(
    clientId: string,
    code: string,
    codeVerifier: string | undefined,
    redirectUri: string | undefined,
  ): Promise<IssuedTokens> {
    const tokens = await this.platform.exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: codeVerifier,
    });
    return this.issue(tokens, clientId, Math.floor(Date.now() / 1000));
  }

  /** Rotates a refresh token: verifies it, relays the refresh, issues a new pair. */
  async refresh(clientId: string, refreshToken: string, scopes?: string[]): Promise<IssuedTokens> {
    const claims = verifyRefreshToken(refreshToken, this.authSecret);
    if (claims.clientId !== clientId) {
      throw new OAuthFailure('invalid_grant', 'The refresh token was issued to another client.');
    }
    const widened = (scopes ?? []).filter((scope) => !claims.scopes.includes(scope));
    if (widened.length > 0) {
      throw new OAuthFailure(
        'invalid_scope',
        `A refresh may only narrow the granted scopes (${claims.scopes.join(' ')}); ${widened.join(' ')} was not granted: log in again to grant it.`,
      );
    }
    const tokens = await this.platform.exchange({
      grant_type: 'refresh_token',
      refresh_token: claims.serverRefreshToken,
      client_id: clientId,
      ...(scopes && scopes.length > 0 ? { scopes } : {}),
    });
    return this.issue(tokens, clientId, claims.sessionStartedAt, claims.scopes);
  }

  private async issue(
    tokens: Awaited<ReturnType<PlatformOAuthClient['exchange']>>,
    clientId: string,
    sessionStartedAt: number,
    grantedScopes: readonly string[] | null = null,
  ): Promise<IssuedTokens> {
    const payload = jwt.decode(tokens.access_token) as {
      meta?: { renderingId?: unknown };
    } | null;
    const renderingId = Number(payload?.meta?.renderingId);
    if (!Number.isInteger(renderingId)) {
      throw new OAuthFailure(
        'server_error',
        "The platform's access token carries no meta.renderingId.",
      );
    }
    const user = await this.platform.userInfo(renderingId, tokens.access_token);
    return issueTokens(
      tokens,
      user,
      clientId,
      sessionStartedAt,
      this.limits,
      this.authSecret,
      grantedScopes,
    );
  }
}
