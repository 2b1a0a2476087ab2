import type { Knex } from 'knex';

/**
 * The keyed activity-log chain: each link records the id of the key its HMAC was computed with
 * (null for the plain SHA-256 links written before, which keep verifying), and the signed
 * checkpoints of chain heads published so far.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_logs', (t) => {
    t.text('key_id');
  });
  await knex.schema.createTable('activity_log_checkpoints', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.bigInteger('sequence').notNullable();
    t.jsonb('checkpoint').notNullable();
    t.timestamp('signed_at', { useTz: true, precision: 3 }).notNullable();
    t.unique(['project_id', 'sequence']);
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('activity_log_checkpoints');
  await knex.schema.alterTable('activity_logs', (t) => t.dropColumn('key_id'));
}
