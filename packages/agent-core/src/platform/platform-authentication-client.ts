import { createHash } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Logger } from '../toolkit/interfaces/logger';
import type { AuthenticatedUser, AuthenticationClient } from './agent-services';
import { AuthenticationError } from './authentication-error';
import { isPlatformError, PlatformError } from './platform-error';
import { identityFromUserInfo, type UserInfoBody } from './user-info';
import type { PlatformHttpClient } from './platform-http-client';

/** The provider metadata the agent relies on (protocol §6.1). */
interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
}

/** The registered client (protocol §6.2). */
interface RegisteredClient {
  clientId: string;
  redirectUri: string | null;
  algorithm: string;
}

interface Provider {
  metadata: ProviderMetadata;
  client: RegisteredClient;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

const DISCOVERY = '/oidc/.well-known/openid-configuration';
const SCOPE = 'openid email profile';

/**
 * The agent as an OpenID Connect relying party of the platform (protocol §6): discovery and
 * dynamic registration (at start, best effort, retried on the first login when they failed),
 * authorization URLs carrying the rendering id as state, code exchange with id-token validation
 * (signature from the provider's JWKS, issuer, audience, expiry, `at_hash`), and user info.
 */
export class PlatformAuthenticationClient implements AuthenticationClient {
  private provider: Promise<Provider> | undefined;

  constructor(
    private readonly http: PlatformHttpClient,
    private readonly logger: Logger,
  ) {}

  /** Discovers and registers now; a failure is logged and retried on the first login. */
  async initialize(): Promise<void> {
    try {
      await this.getProvider();
    } catch (error) {
      this.logger(
        'Warn',
        `OpenID Connect set-up with the platform failed; logins will retry it: ${(error as Error).message}`,
      );
    }
  }

  async getAuthorizationUrl(renderingId: number): Promise<string> {
    const { metadata, client } = await this.getProvider();
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('scope', SCOPE);
    url.searchParams.set('response_type', 'code');
    if (client.redirectUri) url.searchParams.set('redirect_uri', client.redirectUri);
    url.searchParams.set('state', JSON.stringify({ renderingId }));
    return url.toString().replace(/\+/g, '%20');
  }

  async handleCallback(code: string, state: string): Promise<AuthenticatedUser> {
    const renderingId = renderingIdOf(state);
    if (renderingId === null) {
      throw new AuthenticationError({
        status: 401,
        error: 'invalid_request',
        description: 'The state must be the JSON text {"renderingId": <number>} sent at login.',
        state,
      });
    }
    const provider = await this.getProvider();
    const accessToken = await this.exchange(provider, code, state);
    return this.userInfo(renderingId, accessToken);
  }

  private getProvider(): Promise<Provider> {
    if (!this.provider) {
      this.provider = this.discover().catch((error: unknown) => {
        this.provider = undefined;
        throw error;
      });
    }
    return this.provider;
  }

  private async discover(): Promise<Provider> {
    const { body: metadata } = await this.http.request<ProviderMetadata>(DISCOVERY);
    for (const key of [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
      'jwks_uri',
    ] as const) {
      if (typeof metadata?.[key] !== 'string') {
        throw badResponse(this.http.url(DISCOVERY), `the provider metadata has no ${key}`);
      }
    }
    const { body } = await this.http.request<Record<string, unknown>>(
      metadata.registration_endpoint,
      {
        method: 'POST',
        auth: 'secret-bearer',
        body: { token_endpoint_auth_method: 'none' },
      },
    );
    if (typeof body?.client_id !== 'string') {
      throw badResponse(metadata.registration_endpoint, 'the registration has no client_id');
    }
    const redirectUris = Array.isArray(body.redirect_uris) ? body.redirect_uris : [];
    return {
      metadata,
      client: {
        clientId: body.client_id,
        redirectUri: redirectUris.length === 1 ? String(redirectUris[0]) : null,
        algorithm:
          typeof body.id_token_signed_response_alg === 'string'
            ? body.id_token_signed_response_alg
            : 'RS256',
      },
      keys: createRemoteJWKSet(new URL(metadata.jwks_uri)),
    };
  }

  private async exchange({ metadata, client, keys }: Provider, code: string, state: string) {
    const { status, body } = await this.http.request<Record<string, unknown>>(
      metadata.token_endpoint,
      {
        method: 'POST',
        auth: 'none',
        retries: 0,
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_id: client.clientId,
        }),
        acceptStatuses: [400, 401],
      },
    );
    if (
      status >= 400 ||
      typeof body?.id_token !== 'string' ||
      typeof body.access_token !== 'string'
    ) {
      const error = typeof body?.error === 'string' ? body.error : 'invalid_token_response';
      const description =
        typeof body?.error_description === 'string'
          ? body.error_description
          : status >= 400
            ? `The platform refused the authorization code (${status}).`
            : 'The token response must contain an access_token and an id_token.';
      throw new AuthenticationError({ status: 401, error, description, state });
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(body.id_token, keys, {
        issuer: metadata.issuer,
        audience: client.clientId,
        algorithms: [client.algorithm],
        requiredClaims: ['sub', 'iat', 'exp'],
      }));
    } catch (error) {
      throw new AuthenticationError(
        {
          status: 401,
          error: 'invalid_id_token',
          description: `The id token from the platform is not valid: ${(error as Error).message}`,
          state,
        },
        { cause: error },
      );
    }
    // The login must be the agent's own: an id token for other audiences too, or obtained by
    // another client (`azp`), is refused (OpenID Connect Core 1.0, section 3.1.3.7).
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (
      audiences.some((audience) => audience !== client.clientId) ||
      (payload.azp !== undefined && payload.azp !== client.clientId)
    ) {
      throw new AuthenticationError({
        status: 401,
        error: 'invalid_id_token',
        description: `The id token from the platform was not issued to this agent alone (client ${client.clientId}).`,
        state,
      });
    }
    if (
      typeof payload.at_hash === 'string' &&
      payload.at_hash !== atHash(body.access_token, client.algorithm)
    ) {
      throw new AuthenticationError({
        status: 401,
        error: 'invalid_id_token',
        description: 'The id token from the platform does not match its access token (at_hash).',
        state,
      });
    }
    return body.access_token;
  }

  private async userInfo(renderingId: number, accessToken: string): Promise<AuthenticatedUser> {
    const path = `/liana/v2/renderings/${encodeURIComponent(String(renderingId))}/authorization`;
    let body: UserInfoBody;
    try {
      ({ body } = await this.http.request<UserInfoBody>(path, {
        headers: { 'forest-token': accessToken },
      }));
    } catch (error) {
      if (isPlatformError(error, 'PLATFORM_FORBIDDEN')) {
        throw new AuthenticationError(
          { status: 403, description: error.detail ?? 'You are not allowed on this rendering.' },
          { cause: error },
        );
      }
      throw error;
    }
    const user = identityFromUserInfo(renderingId, body);
    if (!user) {
      throw badResponse(this.http.url(path), 'the user info has no data.id or attributes');
    }
    return user;
  }
}

function renderingIdOf(state: string): number | null {
  try {
    const value = Number((JSON.parse(state) as { renderingId?: unknown } | null)?.renderingId);
    return Number.isInteger(value) ? value : null;
  } catch {
    return null;
  }
}

/** OpenID Connect `at_hash`: left half of the access token's digest, base64url. */
function atHash(accessToken: string, algorithm: string): string {
  const bits = algorithm.slice(-3);
  const hash = bits === '384' ? 'sha384' : bits === '512' ? 'sha512' : 'sha256';
  const digest = createHash(hash).update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

function badResponse(url: string, reason: string): PlatformError {
  return new PlatformError(
    'PLATFORM_BAD_RESPONSE',
    `The Canopy platform answered ${url} unexpectedly: ${reason}.`,
    {
      url,
    },
  );
}
