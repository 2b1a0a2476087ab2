import { createHash, randomBytes } from 'node:crypto';
import type { McpClientRegistration } from '@canopy/platform-protocol';
import type { Knex } from 'knex';

/** An OAuth client registered by an MCP client (RFC 7591; the wire type of @canopy/platform-protocol). */
export type McpClient = McpClientRegistration;

/** How long an authorization code stays valid. */
const CODE_SECONDS = 60;

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/** Bounds of dynamic registration: stored clients, and how long an unused one is kept. */
export const MCP_CLIENT_LIMITS = {
  maxClients: 10_000,
  unusedDays: 30,
  maxRedirectUris: 10,
  maxRedirectUriLength: 2000,
  maxClientNameLength: 200,
};

/**
 * Registers a public client with its redirect URIs. Clients never used within
 * {@link MCP_CLIENT_LIMITS}.unusedDays of their registration or last use are deleted first.
 *
 * @returns undefined when {@link MCP_CLIENT_LIMITS}.maxClients clients are still stored.
 */
export async function registerMcpClient(
  knex: Knex,
  input: { redirectUris: string[]; clientName?: string; scope: string; registeredFrom: string },
): Promise<McpClient | undefined> {
  await knex('mcp_oauth_clients')
    .whereRaw('coalesce(last_used_at, created_at) < now() - make_interval(days => ?)', [
      MCP_CLIENT_LIMITS.unusedDays,
    ])
    .delete();
  const stored = await knex('mcp_oauth_clients').count({ count: '*' }).first();
  if (Number(stored?.count) >= MCP_CLIENT_LIMITS.maxClients) return undefined;
  const client: McpClient = {
    client_id: `mcp-${randomBytes(12).toString('hex')}`,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    redirect_uris: input.redirectUris,
    ...(input.clientName === undefined ? {} : { client_name: input.clientName }),
    scope: input.scope,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  await knex('mcp_oauth_clients').insert({
    client_id: client.client_id,
    metadata: JSON.stringify(client),
    registered_from: input.registeredFrom,
  });
  return client;
}

/** A registered client, if any. */
export async function findMcpClient(knex: Knex, clientId: string): Promise<McpClient | undefined> {
  const row = await knex('mcp_oauth_clients').where({ client_id: clientId }).first('metadata');
  return row?.metadata;
}

/** What an authorization code stands for. */
export interface McpCodeGrant {
  clientId: string;
  environmentId: number;
  userId: number;
  renderingId: number;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
}

/** Creates a single-use authorization code (only its SHA-256 is stored); the client is in use. */
export async function createMcpCode(knex: Knex, grant: McpCodeGrant): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  await knex('mcp_oauth_clients')
    .where({ client_id: grant.clientId })
    .update({ last_used_at: knex.fn.now() });
  await knex('mcp_oauth_codes').insert({
    code_hash: hash(code),
    client_id: grant.clientId,
    environment_id: grant.environmentId,
    user_id: grant.userId,
    rendering_id: grant.renderingId,
    redirect_uri: grant.redirectUri,
    code_challenge: grant.codeChallenge,
    scope: grant.scope,
    expires_at: new Date(Date.now() + CODE_SECONDS * 1000),
  });
  return code;
}

/** Takes a code out of the store (so it is used once, whatever process asks); if still valid. */
export async function consumeMcpCode(knex: Knex, code: string): Promise<McpCodeGrant | undefined> {
  const [row] = await knex('mcp_oauth_codes')
    .where({ code_hash: hash(code) })
    .delete()
    .returning('*');
  if (!row || new Date(row.expires_at).getTime() < Date.now()) return undefined;
  return {
    clientId: row.client_id,
    environmentId: row.environment_id,
    userId: row.user_id,
    renderingId: row.rendering_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scope: row.scope,
  };
}
