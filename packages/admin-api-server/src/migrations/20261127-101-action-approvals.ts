import type { Knex } from 'knex';

/**
 * Approval requests of actions (platform protocol §9, admin API "action approvals"): the request
 * a requester filed, its comments, the review and the outcome of the run. Environments also keep
 * their env secret sealed (AES-256-GCM under a key derived from the activity-log chain key), since
 * the platform signs approved requests with it; secrets issued before this migration are only
 * hashed, and must be rotated once before approvals can be signed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('environments', (t) => {
    t.text('secret_sealed');
  });
  await knex.schema.createTable('action_approvals', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.integer('team_id').notNullable();
    t.integer('requester_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.text('action_name').notNullable();
    t.text('collection_name').notNullable();
    t.text('smart_action_id');
    t.jsonb('record_ids').notNullable();
    t.jsonb('inputs').notNullable();
    t.jsonb('request_attributes');
    t.integer('reviewer_id').references('users.id').onDelete('SET NULL');
    t.timestamp('reviewed_at', { useTz: true, precision: 3 });
    t.text('outcome');
    t.text('outcome_message');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['environment_id', 'status', 'id']);
  });
  await knex.schema.createTable('action_approval_comments', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('approval_id').notNullable().references('action_approvals.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('comment').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['approval_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('action_approval_comments');
  await knex.schema.dropTableIfExists('action_approvals');
  await knex.schema.alterTable('environments', (t) => {
    t.dropColumn('secret_sealed');
  });
}
