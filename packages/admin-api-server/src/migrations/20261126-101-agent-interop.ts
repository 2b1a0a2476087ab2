import type { Knex } from 'knex';

/**
 * What the reference agent needs beyond our own (issue 19): the agent's own id of each activity
 * log (public id of the log, unique per environment), the status of the activity logs an MCP
 * server opens before a tool call and closes after it, and the charts each team's `user`-level
 * members may run (rendering `stats`, platform protocol 5.3).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_logs', (t) => {
    t.text('external_id');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX activity_logs_env_external_id ON activity_logs (environment_id, external_id) WHERE external_id IS NOT NULL',
  );
  await knex.schema.createTable('activity_log_requests', (t) => {
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('external_id').notNullable();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('status').notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['environment_id', 'external_id']);
  });
  await knex.schema.alterTable('teams', (t) => {
    t.jsonb('charts').notNullable().defaultTo('[]');
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('teams', (t) => t.dropColumn('charts'));
  await knex.schema.dropTableIfExists('activity_log_requests');
  await knex.raw('DROP INDEX IF EXISTS activity_logs_env_external_id');
  await knex.schema.alterTable('activity_logs', (t) => t.dropColumn('external_id'));
}
