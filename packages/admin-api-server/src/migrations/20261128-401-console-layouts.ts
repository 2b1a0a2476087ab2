import type { Knex } from 'knex';

/**
 * The Console shaped by its users (issue 32), per environment and team: published layout
 * versions and each editor's own draft, saved views (personal or shared with a team) and the
 * team's default view per collection, and the segments built in the Console (served to agents in
 * rendering permissions, platform protocol 5.3).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('layout_versions', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('layout').notNullable();
    t.jsonb('origin').notNullable();
    t.integer('published_by').references('users.id').onDelete('SET NULL');
    t.timestamp('published_at', { useTz: true, precision: 3 })
      .notNullable()
      .defaultTo(knex.fn.now());
    t.unique(['environment_id', 'team_id', 'version']);
  });
  await knex.schema.createTable('layout_drafts', (t) => {
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.jsonb('layout').notNullable();
    t.integer('base_version');
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['environment_id', 'team_id', 'user_id']);
  });
  await knex.schema.createTable('saved_views', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('collection').notNullable();
    t.text('name').notNullable();
    t.integer('owner_id').references('users.id').onDelete('CASCADE');
    // Null: a personal view, seen by its owner only.
    t.integer('team_id').references('teams.id').onDelete('CASCADE');
    t.jsonb('filter');
    t.text('search');
    t.jsonb('sort');
    t.jsonb('columns');
    t.text('segment');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['environment_id', 'collection']);
  });
  await knex.schema.createTable('team_default_views', (t) => {
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('collection').notNullable();
    t.integer('view_id').notNullable().references('saved_views.id').onDelete('CASCADE');
    t.primary(['environment_id', 'team_id', 'collection']);
  });
  await knex.schema.createTable('team_segments', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('collection').notNullable();
    t.text('name').notNullable();
    t.jsonb('filter').notNullable();
    t.integer('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['environment_id', 'team_id', 'collection', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'team_segments',
    'team_default_views',
    'saved_views',
    'layout_drafts',
    'layout_versions',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
