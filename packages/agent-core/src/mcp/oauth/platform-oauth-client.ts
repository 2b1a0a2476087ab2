import type { McpClientRegistration } from '@canopy/platform-protocol';
import type { AuthenticatedUser } from '../../platform/agent-services';
import { isPlatformError } from '../../platform/platform-error';
import type { PlatformHttpClient } from '../../platform/platform-http-client';
import { identityFromUserInfo, type UserInfoBody } from '../../platform/user-info';
import { OAuthFailure } from './oauth-failure';
import type { PlatformTokens } from './mcp-tokens';

/**
 * An OAuth client registered on the platform by an MCP client: the fields of platform-protocol's
 * registration the agent reads, the others passed through as the platform sent them.
 */
export type RegisteredClient = Pick<
  McpClientRegistration,
  'client_id' | 'redirect_uris' | 'client_name'
> & { [key: string]: unknown };

/** The environment as the MCP server needs it. */
export interface PlatformEnvironment {
  id: string;
  apiEndpoint: string | null;
}

/** The platform calls of the MCP server's OAuth façade (platform protocol §10, §16.4). */
export class PlatformOAuthClient {
  constructor(private readonly http: PlatformHttpClient) {}

  /** `GET /liana/environment`: the environment id and the public agent URL. */
  async environment(): Promise<PlatformEnvironment> {
    const { body } = await this.http.request<{
      data?: { id?: string; attributes?: { api_endpoint?: string | null } };
    }>('/liana/environment');
    const id = body?.data?.id;
    if (id === undefined) throw new Error('The platform environment has no id.');
    return { id: String(id), apiEndpoint: body?.data?.attributes?.api_endpoint ?? null };
  }

  /** `GET /oauth/register/<id>`: the client, or `undefined` when the platform does not know it. */
  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    const { status, body } = await this.http.request<RegisteredClient>(
      `/oauth/register/${encodeURIComponent(clientId)}`,
      { auth: 'none', acceptStatuses: [404], retries: 0 },
    );
    if (status === 404 || !body || !Array.isArray(body.redirect_uris)) return undefined;
    return body;
  }

  /** `POST /oauth/token`: the platform checks the grant (and PKCE); its errors are relayed. */
  async exchange(body: Record<string, unknown>): Promise<PlatformTokens> {
    const answer = await this.http.request<
      Partial<PlatformTokens> & { error?: string; error_description?: string }
    >('/oauth/token', { method: 'POST', body, acceptStatuses: [400, 401], retries: 0 });
    const tokens = answer.body;
    if (answer.status !== 200 || typeof tokens?.error === 'string') {
      throw new OAuthFailure(
        tokens?.error ?? 'invalid_grant',
        tokens?.error_description ?? 'The platform refused the grant.',
      );
    }
    if (typeof tokens?.access_token !== 'string' || typeof tokens.refresh_token !== 'string') {
      throw new OAuthFailure('server_error', 'The platform answered without tokens.');
    }
    return tokens as PlatformTokens;
  }

  /** `GET /liana/v2/renderings/<id>/authorization` (§6.5): the user behind a platform token. */
  async userInfo(renderingId: number, accessToken: string): Promise<AuthenticatedUser> {
    let body: UserInfoBody;
    try {
      ({ body } = await this.http.request<UserInfoBody>(
        `/liana/v2/renderings/${encodeURIComponent(String(renderingId))}/authorization`,
        { headers: { 'forest-token': accessToken } },
      ));
    } catch (error) {
      if (isPlatformError(error, 'PLATFORM_FORBIDDEN')) {
        throw new OAuthFailure('access_denied', error.detail ?? 'You are not allowed here.');
      }
      throw error;
    }
    const user = identityFromUserInfo(renderingId, body);
    if (!user) {
      throw new OAuthFailure('server_error', 'The platform user info has no id or attributes.');
    }
    return user;
  }
}
