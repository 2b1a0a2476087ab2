import type { Knex } from 'knex';

/**
 * Account credentials owned by their user: one-time tokens that let a user set their own password
 * (invitations and resets, stored as SHA-256), revocable session tokens, the counters of failed
 * sign-ins (the layout rate-limiter-flexible's PostgreSQL store expects), and the last use of
 * MCP OAuth clients (unused ones expire).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_tokens', (t) => {
    t.bigIncrements('id').primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.enu('purpose', ['invitation', 'reset']).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('used_at', { useTz: true, precision: 3 });
    t.index(['user_id']);
  });
  await knex.schema.createTable('revoked_session_tokens', (t) => {
    t.string('token_id_hash', 64).primary();
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
  });
  await knex.schema.alterTable('users', (t) => {
    // Session tokens issued before this instant are refused ("sign out everywhere", new password).
    t.timestamp('sessions_valid_after', { useTz: true, precision: 3 });
  });
  await knex.schema.createTable('login_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
  await knex.schema.alterTable('mcp_oauth_clients', (t) => {
    t.timestamp('last_used_at', { useTz: true, precision: 3 });
    t.text('registered_from');
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mcp_oauth_clients', (t) => {
    t.dropColumn('registered_from');
    t.dropColumn('last_used_at');
  });
  await knex.schema.dropTableIfExists('login_limits');
  await knex.schema.alterTable('users', (t) => t.dropColumn('sessions_valid_after'));
  await knex.schema.dropTableIfExists('revoked_session_tokens');
  await knex.schema.dropTableIfExists('account_tokens');
}
