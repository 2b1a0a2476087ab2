import type { Knex } from 'knex';

/**
 * State shared by every server process: idempotency records of write requests, and the
 * rate-limit counters (the layout rate-limiter-flexible's PostgreSQL store expects).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.integer('token_id').notNullable().references('application_tokens.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.string('request_fingerprint', 64).notNullable();
    t.integer('response_status');
    t.jsonb('response_body');
    t.jsonb('response_headers');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['token_id', 'key']);
  });
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
}

/** Drops request state. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
  await knex.schema.dropTableIfExists('idempotency_keys');
}
