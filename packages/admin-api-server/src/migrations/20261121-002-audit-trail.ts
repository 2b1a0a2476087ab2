import type { Knex } from 'knex';

/**
 * Activity logs (with a per-project hash chain) and admin logs. The indexes serve the public
 * API's keyset pagination: every list is `ORDER BY created_at DESC, id DESC` within an
 * environment (or project), optionally narrowed by user and action.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('activity_log_chain_heads', (t) => {
    t.integer('project_id').primary().references('projects.id').onDelete('CASCADE');
    t.bigInteger('last_seq').notNullable();
    t.string('last_hash', 64).notNullable();
  });
  await knex.schema.createTable('activity_logs', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id');
    t.integer('team_id').notNullable().references('teams.id');
    t.text('collection_name');
    t.text('type').notNullable();
    t.text('action').notNullable();
    t.text('label');
    t.specificType('record_ids', 'text[]').notNullable().defaultTo('{}');
    t.text('inbox_name');
    t.jsonb('workflow');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.bigInteger('chain_seq').notNullable();
    t.string('previous_hash', 64).notNullable();
    t.string('hash', 64).notNullable();
    t.unique(['project_id', 'chain_seq']);
  });
  await knex.raw(
    'CREATE INDEX activity_logs_env_created ON activity_logs (environment_id, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_user_created ON activity_logs (environment_id, user_id, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_action_created ON activity_logs (environment_id, action, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_user_action_created ON activity_logs (environment_id, user_id, action, created_at DESC, id DESC)',
  );
  await knex.schema.createTable('admin_logs', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('resource').notNullable();
    t.text('initiator').notNullable();
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.jsonb('previous_value');
    t.jsonb('new_value');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'CREATE INDEX admin_logs_project_created ON admin_logs (project_id, created_at DESC, id DESC)',
  );
}

/** Drops the audit trail. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('admin_logs');
  await knex.schema.dropTableIfExists('activity_logs');
  await knex.schema.dropTableIfExists('activity_log_chain_heads');
}
