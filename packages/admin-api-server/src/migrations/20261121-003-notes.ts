import type { Knex } from 'knex';

/** Collaboration notes and their messages. `version` backs the ETag of a note. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notes', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id');
    t.integer('team_id').notNullable().references('teams.id');
    t.text('collection_name');
    t.text('record_id').notNullable();
    t.text('title').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('archived_at', { useTz: true, precision: 3 });
  });
  await knex.raw('CREATE INDEX notes_env_id ON notes (environment_id, id DESC)');
  await knex.schema.createTable('note_messages', (t) => {
    t.increments('id').primary();
    t.integer('note_id').notNullable().references('notes.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id');
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['note_id', 'id']);
  });
}

/** Drops notes. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('note_messages');
  await knex.schema.dropTableIfExists('notes');
}
