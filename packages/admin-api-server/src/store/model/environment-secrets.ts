import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/** An environment found by its env secret, with its project. */
export interface AuthenticatedEnvironment {
  id: number;
  projectId: number;
  name: string;
  type: 'development' | 'production';
}

/** SHA-256 of an env secret: the only form the database holds. */
export function hashEnvironmentSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Generates a new env secret (64 lowercase hex characters) for an environment and stores its
 * hash; the previous secret stops working. The secret is returned once and never stored.
 */
export async function issueEnvironmentSecret(
  knex: Knex | Knex.Transaction,
  environmentId: number,
): Promise<string> {
  const secret = randomBytes(32).toString('hex');
  await knex('environments')
    .where({ id: environmentId })
    .update({ secret_hash: hashEnvironmentSecret(secret) });
  return secret;
}

/** The environment whose env secret this is, if any. */
export async function findEnvironmentBySecret(
  knex: Knex,
  secret: string,
): Promise<AuthenticatedEnvironment | undefined> {
  const row = await knex('environments')
    .where({ secret_hash: hashEnvironmentSecret(secret) })
    .first('id', 'project_id', 'name', 'type');
  return row && { id: row.id, projectId: row.project_id, name: row.name, type: row.type };
}
