import type { Knex } from 'knex';

/**
 * What the agent-facing platform protocol needs: user names and member tags, role rights,
 * team scopes, the IP whitelist of a project, each environment's uploaded schema and declared
 * collections, idempotency of ingested activity-log batches, and the event log that tells
 * connected agents (on any server process) to drop their caches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('first_name').notNullable().defaultTo('');
    t.text('last_name').notNullable().defaultTo('');
  });
  await knex.schema.alterTable('project_memberships', (t) => {
    t.jsonb('tags').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('projects', (t) => {
    // null: no whitelist; otherwise the rules of platform-protocol section 4.
    t.jsonb('ip_whitelist_rules');
  });
  await knex.schema.alterTable('roles', (t) => {
    // {collections: {name: {browseEnabled?...}}, actions: {collection: {action: {...}}}}
    t.jsonb('rights').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('teams', (t) => {
    // {collectionName: conditionTree}
    t.jsonb('scopes').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('environments', (t) => {
    t.text('schema_hash');
    t.jsonb('schema');
    t.text('api_endpoint');
  });
  await knex.schema.createTable('environment_collections', (t) => {
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.jsonb('action_names').notNullable().defaultTo('[]');
    t.primary(['environment_id', 'name']);
  });
  await knex.schema.createTable('ingested_activity_logs', (t) => {
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('external_id').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['environment_id', 'external_id']);
  });
  await knex.schema.createTable('platform_events', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.text('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('platform_events');
  await knex.schema.dropTableIfExists('ingested_activity_logs');
  await knex.schema.dropTableIfExists('environment_collections');
  await knex.schema.alterTable('environments', (t) => {
    t.dropColumns('schema_hash', 'schema', 'api_endpoint');
  });
  await knex.schema.alterTable('teams', (t) => t.dropColumn('scopes'));
  await knex.schema.alterTable('roles', (t) => t.dropColumn('rights'));
  await knex.schema.alterTable('projects', (t) => t.dropColumn('ip_whitelist_rules'));
  await knex.schema.alterTable('project_memberships', (t) => t.dropColumn('tags'));
  await knex.schema.alterTable('users', (t) => t.dropColumns('first_name', 'last_name'));
}
