import type { Knex } from 'knex';

/**
 * The OpenID Connect provider's state, shared by every server process: its artefacts (sessions,
 * interactions, authorization codes, access tokens, registered clients...), its signing key, and
 * the users' password hashes used by the login form.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_payloads', (t) => {
    t.text('model').notNullable();
    t.text('id').notNullable();
    t.jsonb('payload').notNullable();
    t.text('grant_id');
    t.text('uid');
    t.text('user_code');
    t.timestamp('expires_at', { useTz: true, precision: 3 });
    t.timestamp('consumed_at', { useTz: true, precision: 3 });
    t.primary(['model', 'id']);
    t.index(['model', 'uid']);
    t.index(['model', 'grant_id']);
  });
  await knex.schema.createTable('oidc_signing_keys', (t) => {
    t.increments('id').primary();
    t.jsonb('jwk').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('users', (t) => {
    t.text('password_hash');
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.dropColumn('password_hash'));
  await knex.schema.dropTableIfExists('oidc_signing_keys');
  await knex.schema.dropTableIfExists('oidc_payloads');
}
