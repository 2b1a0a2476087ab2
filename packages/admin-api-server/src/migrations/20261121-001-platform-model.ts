import type { Knex } from 'knex';

const PERMISSION_LEVELS = ['admin', 'editor', 'user', 'developer', 'manager'];
const ENVIRONMENT_TYPES = ['development', 'production'];

/**
 * The platform model: projects and what belongs to them (environments, teams, roles, members),
 * users, and application tokens. Named and shaped for the whole platform, not only the public API.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.increments('id').primary();
    t.text('name').notNullable().unique();
    t.boolean('sso_enabled').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('environments', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.enu('type', ENVIRONMENT_TYPES).notNullable().defaultTo('production');
    t.text('secret_hash').unique();
    t.integer('code_customization_version').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name']);
  });
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.text('email').notNullable();
    t.text('username').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_lower_unique ON users (lower(email))');
  await knex.schema.createTable('teams', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name']);
  });
  await knex.schema.createTable('roles', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name']);
  });
  await knex.schema.createTable('project_memberships', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.enu('permission_level', PERMISSION_LEVELS).notNullable();
    t.integer('role_id').references('roles.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'user_id']);
  });
  await knex.schema.createTable('project_membership_teams', (t) => {
    t.integer('membership_id')
      .notNullable()
      .references('project_memberships.id')
      .onDelete('CASCADE');
    t.integer('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.primary(['membership_id', 'team_id']);
  });
  await knex.schema.createTable('application_tokens', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // SHA-256 of the JWT's `jti`: the token itself is never stored.
    t.string('token_id_hash', 64).notNullable().unique();
    t.specificType('scopes', 'text[]').notNullable();
    t.boolean('created_with_sso').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true, precision: 3 });
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('revoked_at', { useTz: true, precision: 3 });
    t.index(['project_id', 'id']);
  });
}

/** Drops the platform model. */
export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'application_tokens',
    'project_membership_teams',
    'project_memberships',
    'roles',
    'teams',
    'users',
    'environments',
    'projects',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
