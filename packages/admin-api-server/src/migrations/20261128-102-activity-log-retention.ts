import type { Knex } from 'knex';

/**
 * Activity-log retention per project (issue #23): the months of logs a project keeps (null: keep
 * forever), and the anchor of each purged chain: the last link removed (its sequence and hash,
 * signed like a checkpoint), from which verification of the remaining links starts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.integer('activity_log_retention_months');
  });
  await knex.schema.createTable('activity_log_chain_anchors', (t) => {
    t.integer('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.bigInteger('sequence').notNullable();
    t.string('hash', 64).notNullable();
    t.boolean('keyed').notNullable();
    t.timestamp('cutoff', { useTz: true, precision: 3 }).notNullable();
    t.jsonb('checkpoint').notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('activity_log_chain_anchors');
  await knex.schema.alterTable('projects', (t) => t.dropColumn('activity_log_retention_months'));
}
