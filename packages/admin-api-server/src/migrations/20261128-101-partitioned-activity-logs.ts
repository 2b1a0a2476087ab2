import type { Knex } from 'knex';
import {
  DEFAULT_MONTHS_AHEAD,
  DEFAULT_PARTITION,
  monthStart,
  partitionName,
} from '../store/activity-log-partitions';

/**
 * Activity logs partitioned by month (issue #23): `activity_logs` becomes a table partitioned by
 * RANGE on `created_at`, one partition per calendar month (UTC) plus a default partition for
 * rows of months without their own. In one transaction: a partitioned twin is created with a
 * partition for every month that holds rows and for the current and next months, the rows are
 * copied, the id sequence is handed over, and the names are swapped.
 *
 * Under partitioning every unique constraint must contain the partition key: the primary key
 * becomes `(id, created_at)` (ids still come from one sequence, so they stay unique, and the
 * `(created_at, id)` keyset cursor is unchanged). `(project_id, chain_seq)` is now a plain index:
 * one writer per project appends at a time (the chain head row is locked), and a duplicated
 * sequence fails chain verification. `(environment_id, external_id)` uniqueness is kept by
 * `ingested_activity_logs`, where each agent log id is claimed before it is written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('SET LOCAL statement_timeout = 0');
  await knex.raw(
    'CREATE TABLE activity_logs_partitioned (LIKE activity_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)',
  );
  await knex.raw(
    `CREATE TABLE ${DEFAULT_PARTITION} PARTITION OF activity_logs_partitioned DEFAULT`,
  );
  const { rows } = await knex.raw<{ rows: { month: Date }[] }>(
    `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM activity_logs`,
  );
  const months = new Map<string, Date>();
  for (const row of rows) months.set(partitionName(monthStart(row.month)), monthStart(row.month));
  for (let offset = 0; offset <= DEFAULT_MONTHS_AHEAD; offset += 1) {
    const start = monthStart(new Date(), offset);
    months.set(partitionName(start), start);
  }
  for (const [name, start] of months) {
    await knex.raw(
      `CREATE TABLE ?? PARTITION OF activity_logs_partitioned FOR VALUES FROM ('${start.toISOString()}') TO ('${monthStart(start, 1).toISOString()}')`,
      [name],
    );
  }
  await knex.raw('INSERT INTO activity_logs_partitioned SELECT * FROM activity_logs');
  await knex.raw('ALTER SEQUENCE activity_logs_id_seq OWNED BY activity_logs_partitioned.id');
  await knex.raw('DROP TABLE activity_logs');
  await knex.raw('ALTER TABLE activity_logs_partitioned RENAME TO activity_logs');
  await addKeysAndIndexes(knex, false);
}

/** The keys, foreign keys and indexes of `activity_logs`, partitioned or not. */
async function addKeysAndIndexes(knex: Knex, unique: boolean): Promise<void> {
  await knex.raw(
    unique
      ? 'ALTER TABLE activity_logs ADD CONSTRAINT activity_logs_pkey PRIMARY KEY (id)'
      : 'ALTER TABLE activity_logs ADD CONSTRAINT activity_logs_pkey PRIMARY KEY (id, created_at)',
  );
  for (const [column, table, onDelete] of [
    ['project_id', 'projects', ' ON DELETE CASCADE'],
    ['environment_id', 'environments', ' ON DELETE CASCADE'],
    ['user_id', 'users', ''],
    ['team_id', 'teams', ''],
  ] as const) {
    await knex.raw(
      `ALTER TABLE activity_logs ADD CONSTRAINT activity_logs_${column}_foreign FOREIGN KEY (${column}) REFERENCES ${table} (id)${onDelete}`,
    );
  }
  await knex.raw(
    'CREATE INDEX activity_logs_env_created ON activity_logs (environment_id, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_user_created ON activity_logs (environment_id, user_id, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_action_created ON activity_logs (environment_id, action, created_at DESC, id DESC)',
  );
  await knex.raw(
    'CREATE INDEX activity_logs_env_user_action_created ON activity_logs (environment_id, user_id, action, created_at DESC, id DESC)',
  );
  await knex.raw(
    `CREATE ${unique ? 'UNIQUE ' : ''}INDEX activity_logs_env_external_id ON activity_logs (environment_id, external_id) WHERE external_id IS NOT NULL`,
  );
  await knex.raw(
    unique
      ? 'ALTER TABLE activity_logs ADD CONSTRAINT activity_logs_project_id_chain_seq_unique UNIQUE (project_id, chain_seq)'
      : 'CREATE INDEX activity_logs_project_chain_seq ON activity_logs (project_id, chain_seq)',
  );
}

/** Back to one plain table (the rows are copied back). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('SET LOCAL statement_timeout = 0');
  await knex.raw(
    'CREATE TABLE activity_logs_plain (LIKE activity_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
  );
  await knex.raw('INSERT INTO activity_logs_plain SELECT * FROM activity_logs');
  await knex.raw('ALTER SEQUENCE activity_logs_id_seq OWNED BY activity_logs_plain.id');
  await knex.raw('DROP TABLE activity_logs');
  await knex.raw('ALTER TABLE activity_logs_plain RENAME TO activity_logs');
  await addKeysAndIndexes(knex, true);
}
