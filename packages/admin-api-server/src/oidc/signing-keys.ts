import { generateKeyPairSync } from 'node:crypto';
import type { Knex } from 'knex';
import type { JWK } from 'oidc-provider';

/**
 * The RS256 key that signs ID tokens, shared by every server process: created once (under an
 * advisory lock, so processes starting together agree) and kept in `oidc_signing_keys`.
 */
export async function loadSigningKeys(knex: Knex): Promise<JWK[]> {
  return knex.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('oidc_signing_keys'))");
    const rows: { jwk: JWK }[] = await trx('oidc_signing_keys').orderBy('id', 'desc').select('jwk');
    if (rows.length > 0) return rows.map((row) => row.jwk);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = {
      ...privateKey.export({ format: 'jwk' }),
      alg: 'RS256',
      use: 'sig',
      kid: `k${Date.now()}`,
    };
    await trx('oidc_signing_keys').insert({ jwk: JSON.stringify(jwk) });
    return [jwk as JWK];
  });
}
