import type { Knex } from 'knex';

/**
 * The Console's live stream, continued (issue 33): approval requests in the inbox of the members
 * who may decide them (docs/public-api.md §8).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbox_items', (t) => {
    t.bigInteger('approval_id').references('action_approvals.id').onDelete('CASCADE');
    t.index(['approval_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbox_items', (t) => {
    t.dropColumn('approval_id');
  });
}
