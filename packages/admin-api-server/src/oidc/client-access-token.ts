import type { Knex } from 'knex';
import { postgresAdapter } from './postgres-adapter';

/**
 * The user of an opaque access token issued to the client `clientId`, read through the provider's
 * own storage, so any process can check a token another issued. The token must exist (revoking a
 * login deletes every token of its grant), be unexpired, belong to that client, and its grant
 * must still exist.
 */
export async function findClientAccessToken(
  knex: Knex,
  clientId: string,
  token: string,
): Promise<{ userId: number } | undefined> {
  if (token.length === 0 || token.length > 200) return undefined;
  const Adapter = postgresAdapter(knex);
  const payload = await new Adapter('AccessToken').find(token);
  if (
    !payload ||
    payload.clientId !== clientId ||
    typeof payload.exp !== 'number' ||
    payload.exp <= Date.now() / 1000 ||
    typeof payload.grantId !== 'string' ||
    typeof payload.accountId !== 'string'
  ) {
    return undefined;
  }
  const grant = await new Adapter('Grant').find(payload.grantId);
  if (!grant || (typeof grant.exp === 'number' && grant.exp <= Date.now() / 1000)) {
    return undefined;
  }
  const userId = Number(payload.accountId);
  return Number.isSafeInteger(userId) ? { userId } : undefined;
}
