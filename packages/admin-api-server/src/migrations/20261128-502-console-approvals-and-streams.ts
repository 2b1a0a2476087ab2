import type { Knex } from 'knex';

/**
 * The Console's live stream, continued (issue 33): approval requests in the inbox of the members
 * who may decide them, and the open streams of every server, so that a member's presence is
 * cleared when the stream that reported it, or their last stream there, closes
 * (docs/public-api.md §8).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbox_items', (t) => {
    t.bigInteger('approval_id').references('action_approvals.id').onDelete('CASCADE');
    t.index(['approval_id']);
  });
  // One row per open stream, on any server, until `expires_at` (renewed by the server holding it).
  await knex.schema.createTable('console_streams', (t) => {
    t.text('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.index(['environment_id', 'user_id']);
    t.index(['expires_at']);
  });
  // The stream whose page reported the presence (null: the client named none).
  await knex.schema.alterTable('console_presence', (t) => {
    t.text('stream_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('console_presence', (t) => {
    t.dropColumn('stream_id');
  });
  await knex.schema.dropTable('console_streams');
  await knex.schema.alterTable('inbox_items', (t) => {
    t.dropColumn('approval_id');
  });
}
