import type { Knex } from 'knex';

/**
 * The Console's live stream and inbox (issue 33): the events of a project's environments read by
 * the Console's event streams (docs/public-api.md §8), the single-use tickets that open a
 * stream, and each member's inbox (the notes that mention them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_events', (t) => {
    // Taken under a per-environment lock (src/store/console-events.ts): commit order is id order.
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    // Null: every environment of the project (a member's rights changed).
    t.integer('environment_id').references('environments.id').onDelete('CASCADE');
    // Null: every member who may see it; else that user only.
    t.integer('user_id').references('users.id').onDelete('CASCADE');
    // For note events: members to whom the collection is hidden do not get it.
    t.text('collection_name');
    t.boolean('admins_only').notNullable().defaultTo(false);
    t.text('event').notNullable();
    t.text('data').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['environment_id', 'id']);
    t.index(['created_at']);
  });
  await knex.schema.createTable('console_stream_tickets', (t) => {
    t.text('ticket_hash').primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
  });
  await knex.schema.createTable('inbox_items', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.integer('note_id').references('notes.id').onDelete('CASCADE');
    t.integer('message_id').references('note_messages.id').onDelete('CASCADE');
    t.integer('actor_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('read_at', { useTz: true, precision: 3 });
    t.index(['environment_id', 'user_id', 'id']);
  });
  // Who has which record open in the Console, until `expires_at` (renewed by heartbeats).
  await knex.schema.createTable('console_presence', (t) => {
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('collection_name').notNullable();
    t.text('record_id').notNullable();
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.primary(['environment_id', 'user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('console_presence');
  await knex.schema.dropTable('inbox_items');
  await knex.schema.dropTable('console_stream_tickets');
  await knex.schema.dropTable('console_events');
}
