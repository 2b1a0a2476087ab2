import type { Knex } from 'knex';
import * as platformModel from './20261121-001-platform-model';
import * as auditTrail from './20261121-002-audit-trail';
import * as notes from './20261121-003-notes';
import * as requestState from './20261121-004-request-state';
import * as agentPlatform from './20261121-005-agent-platform';
import * as oidc from './20261121-006-oidc';
import * as mcpOAuth from './20261121-007-mcp-oauth';
import * as accounts from './20261126-001-accounts';
import * as keyedChain from './20261126-002-keyed-activity-chain';
import * as agentInterop from './20261126-101-agent-interop';
import * as rateLimitBuckets from './20261126-201-rate-limit-buckets';
import * as actionApprovals from './20261127-101-action-approvals';
import * as dashboards from './20261127-201-dashboards';
import * as partitionedActivityLogs from './20261128-101-partitioned-activity-logs';
import * as activityLogRetention from './20261128-102-activity-log-retention';
import * as activityLogErrorMessages from './20261128-311-activity-log-error-messages';
import * as consoleLayouts from './20261128-401-console-layouts';
import * as consoleLive from './20261128-501-console-live';
import * as consoleApprovalsAndStreams from './20261128-502-console-approvals-and-streams';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121-001-platform-model': platformModel,
  '20261121-002-audit-trail': auditTrail,
  '20261121-003-notes': notes,
  '20261121-004-request-state': requestState,
  '20261121-005-agent-platform': agentPlatform,
  '20261121-006-oidc': oidc,
  '20261121-007-mcp-oauth': mcpOAuth,
  '20261126-001-accounts': accounts,
  '20261126-002-keyed-activity-chain': keyedChain,
  '20261126-101-agent-interop': agentInterop,
  '20261126-201-rate-limit-buckets': rateLimitBuckets,
  '20261127-101-action-approvals': actionApprovals,
  '20261127-201-dashboards': dashboards,
  '20261128-101-partitioned-activity-logs': partitionedActivityLogs,
  '20261128-102-activity-log-retention': activityLogRetention,
  '20261128-311-activity-log-error-messages': activityLogErrorMessages,
  '20261128-401-console-layouts': consoleLayouts,
  '20261128-501-console-live': consoleLive,
  '20261128-502-console-approvals-and-streams': consoleApprovalsAndStreams,
};

/** The migrations as a knex source: imported modules, so they survive bundling. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`Unknown migration "${name}".`);
    return migration;
  },
};

/**
 * Creates knex's own bookkeeping tables (same layout as knex creates them) under an advisory lock
 * on the schema. knex creates them without one, so two processes starting together on a fresh
 * database could both create them, or both insert a lock row and then lock each other out for
 * good. Once they exist, knex's row lock serializes the migrations themselves.
 */
async function ensureMigrationTables(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
    await trx.raw(
      'CREATE TABLE IF NOT EXISTS knex_migrations (id serial PRIMARY KEY, name varchar(255), batch integer, migration_time timestamptz)',
    );
    await trx.raw(
      'CREATE TABLE IF NOT EXISTS knex_migrations_lock (index serial PRIMARY KEY, is_locked integer)',
    );
    await trx.raw(
      'INSERT INTO knex_migrations_lock (is_locked) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM knex_migrations_lock)',
    );
  });
}

/**
 * Applies every pending migration; returns the names applied. Several server processes may start
 * together on one database: one applies the migrations, the others wait for it and find nothing
 * left to do.
 */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  await ensureMigrationTables(knex);
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
