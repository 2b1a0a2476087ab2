import type { Knex } from 'knex';
import type { ClientMetadata } from 'oidc-provider';
import { PLATFORM_API_AUDIENCE, TOKEN_TYPES } from './token-purposes';
import { findClientAccessToken } from './client-access-token';

/** The OAuth client id of canopy-cloud (`@canopy/cloud-cli`). */
export const CLI_CLIENT_ID = 'canopy-cloud';

/** The scopes canopy-cloud asks for and is granted: an identity and a refresh token. */
export const CLI_SCOPES = 'openid offline_access';

/**
 * canopy-cloud, pre-registered: a public native client (no secret, no redirect URI) that logs in
 * with the device authorization grant (RFC 8628) and refreshes its tokens. `offline_access` in
 * its grant makes oidc-provider issue refresh tokens (its default `issueRefreshToken`: the client
 * may use the refresh_token grant and the scope includes offline_access).
 */
export const CLI_CLIENT: ClientMetadata = {
  client_id: CLI_CLIENT_ID,
  client_name: 'canopy-cloud',
  application_type: 'native',
  token_endpoint_auth_method: 'none',
  grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
  response_types: [],
  redirect_uris: [],
  scope: CLI_SCOPES,
};

/** A canopy-cloud access token that is still valid. */
export interface CliAccessToken {
  /** The user who approved the login. */
  userId: number;
}

/**
 * The canopy-cloud access token `token` (opaque), read through the provider's own storage: the
 * access token must exist (revoking the login deletes it with every token of its grant), be
 * unexpired, belong to canopy-cloud, and its grant must still exist. Any process can check a
 * token another issued.
 */
export async function findCliAccessToken(
  knex: Knex,
  token: string,
): Promise<CliAccessToken | undefined> {
  return findClientAccessToken(knex, CLI_CLIENT_ID, token, {
    typ: TOKEN_TYPES.cliAccess,
    aud: PLATFORM_API_AUDIENCE,
  });
}
