import type { Knex } from 'knex';

/**
 * One row per rate-limit key holding both of its buckets (sustained and burst), so that a charge
 * is a single atomic upsert: concurrent requests, on any server process, each see the counts the
 * previous one left (no `X-RateLimit-Remaining` value is reported twice). Replaces
 * `rate_limits`, the two-row layout of rate-limiter-flexible's store (its counters only last a
 * window: nothing needs carrying over).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_buckets', (t) => {
    t.text('key').primary();
    t.integer('used').notNullable();
    t.timestamp('window_end', { useTz: true, precision: 3 }).notNullable();
    t.integer('burst_used').notNullable();
    t.timestamp('burst_end', { useTz: true, precision: 3 }).notNullable();
    // The last charge's outcome: s(ustained), b(urst) or r(efused).
    t.specificType('outcome', 'char(1)').notNullable();
  });
  await knex.schema.dropTableIfExists('rate_limits');
}

/** Restores the two-row table (empty). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_buckets');
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
}
