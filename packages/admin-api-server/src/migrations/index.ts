import type { Knex } from 'knex';
import * as platformModel from './20261121-001-platform-model';
import * as auditTrail from './20261121-002-audit-trail';
import * as notes from './20261121-003-notes';
import * as requestState from './20261121-004-request-state';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121-001-platform-model': platformModel,
  '20261121-002-audit-trail': auditTrail,
  '20261121-003-notes': notes,
  '20261121-004-request-state': requestState,
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

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
