import type { Knex } from 'knex';
import type { ClientMetadata } from 'oidc-provider';
import { PLATFORM_API_AUDIENCE, TOKEN_TYPES } from './token-purposes';
import { findClientAccessToken } from './client-access-token';

/** The OAuth client id of the Canopy Console (`@canopy/console`, served at `/`). */
export const CONSOLE_CLIENT_ID = 'canopy-console';

/** The scope the console asks for: who the user is, nothing else. */
export const CONSOLE_SCOPES = 'openid';

/**
 * The console, pre-registered per issuer: a public browser client (no secret) that logs in with
 * the authorization code flow and PKCE (S256, required), redirected to the platform's own
 * callback page on the issuer's origin — the origin that serves the console, which reads the
 * authorization response from its sign-in pop-up. Its access token is opaque and authenticates
 * the `/v1/me` routes only.
 */
export function consoleClient(issuer: string): ClientMetadata {
  return {
    client_id: CONSOLE_CLIENT_ID,
    client_name: 'Canopy Console',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: [`${issuer}/callback`],
    scope: CONSOLE_SCOPES,
  };
}

/**
 * The user of a console access token that is still valid: it exists (it is stored until it
 * expires or its grant is revoked), is unexpired, belongs to the console, and its grant exists.
 */
export async function findConsoleAccessToken(
  knex: Knex,
  token: string,
): Promise<{ userId: number } | undefined> {
  return findClientAccessToken(knex, CONSOLE_CLIENT_ID, token, {
    typ: TOKEN_TYPES.consoleAccess,
    aud: PLATFORM_API_AUDIENCE,
  });
}
