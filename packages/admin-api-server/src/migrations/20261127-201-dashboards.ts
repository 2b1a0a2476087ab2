import type { Knex } from 'knex';

/**
 * One dashboard per environment: the console's charts and their layout (`items`, in order).
 * The collection charts built in the UI are also served to agents in every rendering's `stats`,
 * so that members of level `user` may run them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dashboards', (t) => {
    t.integer('environment_id').primary().references('environments.id').onDelete('CASCADE');
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.jsonb('items').notNullable().defaultTo('[]');
    t.integer('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('dashboards');
}
