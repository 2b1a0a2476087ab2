import type { Knex } from 'knex';

/**
 * The platform side of the MCP OAuth flow: the clients MCP clients registered (RFC 7591) and
 * the pending authorization codes (single use, stored as SHA-256).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mcp_oauth_clients', (t) => {
    t.text('client_id').primary();
    t.jsonb('metadata').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('mcp_oauth_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.text('client_id').notNullable().references('mcp_oauth_clients.client_id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('rendering_id').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.text('scope').notNullable();
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mcp_oauth_codes');
  await knex.schema.dropTableIfExists('mcp_oauth_clients');
}
