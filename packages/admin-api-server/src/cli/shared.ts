import type { Knex } from 'knex';
import { loadConfig } from '../config';
import { openDatabase } from '../database/open-database';
import { chainKeysOf, useChainKeys } from '../integrity/chain-keys';
import { migrateToLatest } from '../migrations';
import { createUser, findUserByEmail } from '../store/model';
import type { CliIo } from './io';

export const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A mistake of the operator's: printed as one sentence, exit code 1. */
export class CliError extends Error {}

/** Runs `run` on the configured database, migrated, with the audit chain's keys registered. */
export async function withDatabase<T>(
  io: CliIo,
  requireSigningKeys: boolean,
  run: (knex: Knex, config: ReturnType<typeof loadConfig>) => Promise<T>,
): Promise<T> {
  const config = loadConfig(io.env, { requireSigningKeys });
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.knex);
    if (config.signingKeys.length > 0 || config.auditChainKeys) {
      useChainKeys(database.knex, chainKeysOf(config));
    }
    return await run(database.knex, config);
  } finally {
    await database.close();
  }
}

/** The account of `--email`; created (without a password) with `--create`. */
export async function userForOperator(knex: Knex, options: { email: string; create?: boolean }) {
  const { email } = options;
  if (!EMAIL.test(email)) throw new CliError(`--email must be an email address; got "${email}".`);
  const user = await findUserByEmail(knex, email);
  if (user) return user;
  if (!options.create) {
    throw new CliError(`No user has the email "${email}" (add --create to create one).`);
  }
  return createUser(knex, { email });
}
