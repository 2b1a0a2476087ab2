import type { Knex } from 'knex';
import type { TokenType } from './token-purposes';
import { postgresAdapter } from '../store/oidc-postgres-adapter';

/**
 * The user of an opaque access token issued to the client `clientId`, read through the provider's
 * own storage, so any process can check a token another issued. The token must exist (revoking a
 * login deletes every token of its grant), be unexpired, belong to that client, and its grant
 * must still exist. Its purpose (`extra.typ`, `extra.aud`, see src/oidc/provider.ts) must be
 * `purpose`; tokens issued before purposes were written carry none and are judged by client.
 */
export async function findClientAccessToken(
  knex: Knex,
  clientId: string,
  token: string,
  purpose: { typ: TokenType; aud: string },
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
    typeof payload.accountId !== 'string' ||
    !hasPurpose(payload.extra, purpose)
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

function hasPurpose(extra: unknown, purpose: { typ: TokenType; aud: string }): boolean {
  if (extra === undefined || extra === null) return true;
  const claims = extra as { typ?: unknown; aud?: unknown };
  return claims.typ === purpose.typ && claims.aud === purpose.aud;
}
