import type { Knex } from 'knex';

/**
 * Why an operation failed (issue #31): the reason an agent or an MCP server reports with a
 * `failed` status, kept beside the status (outside the chained content, like the status), at
 * most 1000 characters; null when the operation did not fail or no reason was given.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_log_requests', (t) => {
    t.text('error_message');
  });
  await knex.raw(
    'ALTER TABLE activity_log_requests ADD CONSTRAINT activity_log_requests_error_message_length CHECK (char_length(error_message) <= 1000)',
  );
}

/** Drops what {@link up} added. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('activity_log_requests', (t) => t.dropColumn('error_message'));
}
