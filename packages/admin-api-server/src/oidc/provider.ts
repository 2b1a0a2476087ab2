import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Configuration, Provider } from 'oidc-provider';
import type { SigningKey } from '../config';
import { postgresAdapter } from './postgres-adapter';
import { loadSigningKeys } from './signing-keys';

/** Where the agents' OIDC provider is mounted. */
export const OIDC_PATH = '/oidc';

/** Client metadata naming the environment whose agent registered the client. */
export const ENVIRONMENT_CLAIM = 'canopy_environment_id';

/**
 * Builds the OpenID Connect provider agents log users in through (oidc-provider): dynamic
 * registration of public clients, authorization code flow without PKCE (the agents send none),
 * RS256 ID tokens, opaque access tokens, everything stored in PostgreSQL.
 */
export async function createOidcProvider(
  knex: Knex,
  issuer: string,
  signingKeys: readonly SigningKey[],
  trustProxy: boolean,
): Promise<Provider> {
  const configuration: Configuration = {
    adapter: postgresAdapter(knex),
    jwks: { keys: await loadSigningKeys(knex) },
    // Cookie keys derived from the token signing keys: every process signs cookies alike.
    cookies: {
      keys: signingKeys.map((key) =>
        createHash('sha256').update(`oidc-cookies:${key.secret}`).digest('hex'),
      ),
    },
    features: {
      registration: { enabled: true },
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
    },
    extraClientMetadata: { properties: [ENVIRONMENT_CLAIM] },
    pkce: { required: () => false },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      AccessToken: 3600,
      IdToken: 3600,
    },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['name', 'given_name', 'family_name'],
    },
    interactions: { url: (_ctx, interaction) => `${OIDC_PATH}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const user = await knex('users')
        .where({ id: Number(id) })
        .first('id', 'email', 'first_name', 'last_name', 'username');
      if (!user) return undefined;
      return {
        accountId: String(user.id),
        claims: () => ({
          sub: String(user.id),
          email: user.email,
          name: user.username,
          given_name: user.first_name,
          family_name: user.last_name,
        }),
      };
    },
    async renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  };
  // Loaded on first use: the library warns on Node 20 (it supports it, but recommends 22) and
  // servers that never log a user in need not load it.
  const { Provider: OidcProvider } = await import('oidc-provider');
  const provider = new OidcProvider(issuer, configuration);
  provider.proxy = trustProxy;
  return provider;
}
