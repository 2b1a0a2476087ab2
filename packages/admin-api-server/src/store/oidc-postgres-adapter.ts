import type { Knex } from 'knex';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** How long an expired device code is still found (so its poll answers `expired_token`). */
const DEVICE_CODE_GRACE_SECONDS = 3600;

/**
 * oidc-provider's storage in PostgreSQL (table `oidc_payloads`), so that a code issued by one
 * server process can be exchanged on another. One adapter instance serves one model name.
 */
export function postgresAdapter(knex: Knex): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await knex('oidc_payloads')
        .insert({
          model: this.model,
          id,
          payload: JSON.stringify(payload),
          grant_id: payload.grantId ?? null,
          uid: payload.uid ?? null,
          user_code: payload.userCode ?? null,
          expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        })
        .onConflict(['model', 'id'])
        .merge();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.first({ id });
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.first({ uid });
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.first({ user_code: userCode });
    }

    async consume(id: string): Promise<void> {
      await knex('oidc_payloads')
        .where({ model: this.model, id })
        .update({ consumed_at: knex.fn.now() });
    }

    async destroy(id: string): Promise<void> {
      await knex('oidc_payloads').where({ model: this.model, id }).delete();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await knex('oidc_payloads').where({ grant_id: grantId }).delete();
    }

    private async first(where: Record<string, string>): Promise<AdapterPayload | undefined> {
      // Device codes stay readable for a while after they expire: oidc-provider checks their
      // expiry itself and answers the polling client `expired_token` (RFC 8628 §3.5), which it
      // cannot do for a code it does not find. Other artefacts vanish when they expire.
      const horizon =
        this.model === 'DeviceCode'
          ? knex.raw(`now() - interval '${DEVICE_CODE_GRACE_SECONDS} seconds'`)
          : knex.fn.now();
      const row = await knex('oidc_payloads')
        .where({ model: this.model, ...where })
        .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', horizon))
        .orderBy('expires_at', 'desc')
        .first('payload', 'consumed_at');
      if (!row) return undefined;
      return row.consumed_at
        ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
        : row.payload;
    }
  };
}
