import type { ManagedEnvironment } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { publishAccessChange } from '../access-changes';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import { issueEnvironmentSecret } from '../model/environment-secrets';
import { publishPlatformEvent } from '../platform-events';
import { environmentValue } from './admin-values';

/** An environment as the management API shows it (never its secret). */
export type EnvironmentItem = ManagedEnvironment;

type EnvironmentRecord = {
  id: number;
  name: string;
  type: 'development' | 'production';
  api_endpoint: string | null;
  code_customization_version: number;
};

const COLUMNS = ['id', 'name', 'type', 'api_endpoint', 'code_customization_version'];

/** The environments of a project. */
export async function listEnvironments(knex: Knex, projectId: number): Promise<EnvironmentItem[]> {
  const rows: EnvironmentRecord[] = await knex('environments')
    .where({ project_id: projectId })
    .orderBy('id')
    .select(COLUMNS);
  const collections: { environment_id: number; name: string }[] = await knex(
    'environment_collections',
  )
    .whereIn(
      'environment_id',
      rows.map((row) => row.id),
    )
    .orderBy('name')
    .select('environment_id', 'name');
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    apiEndpoint: row.api_endpoint,
    collections: collections.filter((c) => c.environment_id === row.id).map((c) => c.name),
  }));
}

async function findEnvironment(
  trx: Knex.Transaction,
  projectId: number,
  name: string,
): Promise<EnvironmentRecord> {
  const row = await trx('environments')
    .where({ project_id: projectId, name })
    .forUpdate()
    .first(COLUMNS);
  if (!row) {
    throw new ApiError(404, 'environment_not_found', `Project has no environment named "${name}".`);
  }
  return row;
}

/**
 * Creates an environment and its env secret, with its admin log, in one transaction. The secret
 * is returned once; only its hash is stored.
 *
 * @throws ApiError 409 when the name is taken.
 */
export async function createEnvironmentWithSecret(
  knex: Knex | Knex.Transaction,
  projectId: number,
  actorId: number | null,
  input: { name: string; type?: 'development' | 'production'; apiEndpoint?: string | null },
): Promise<{ environment: EnvironmentItem; secret: string }> {
  return knex.transaction(async (trx) => {
    const [row] = await trx('environments')
      .insert({
        project_id: projectId,
        name: input.name,
        type: input.type ?? 'production',
        api_endpoint: input.apiEndpoint ?? null,
      })
      .onConflict(['project_id', 'name'])
      .ignore()
      .returning(COLUMNS);
    if (!row) {
      throw new ApiError(409, 'conflict', `An environment named "${input.name}" already exists.`);
    }
    const secret = await issueEnvironmentSecret(trx, row.id);
    // Application tokens asking for this name had been told it does not exist.
    await publishAccessChange(trx);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'add',
        resource: 'environment',
        initiator: 'administrator',
        userId: actorId,
        newValue: environmentValue(row),
      },
    ]);
    return {
      environment: {
        id: row.id,
        name: row.name,
        type: row.type,
        apiEndpoint: row.api_endpoint,
        collections: [],
      },
      secret,
    };
  });
}

/** Changes an environment's name, type or agent URL, or (with `rotateSecret`) its env secret. */
export async function updateEnvironment(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
  input: {
    name?: string;
    type?: 'development' | 'production';
    apiEndpoint?: string | null;
    rotateSecret?: boolean;
  },
): Promise<{ environment: EnvironmentItem; secret?: string }> {
  const result = await knex.transaction(async (trx) => {
    const before = await findEnvironment(trx, projectId, name);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.apiEndpoint !== undefined ? { api_endpoint: input.apiEndpoint } : {}),
    };
    const [row] =
      Object.keys(changes).length === 0
        ? [before]
        : await trx('environments').where({ id: before.id }).update(changes).returning(COLUMNS);
    const secret = input.rotateSecret ? await issueEnvironmentSecret(trx, before.id) : undefined;
    if (input.name !== undefined || input.type !== undefined) await publishAccessChange(trx);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'update',
        resource: 'environment',
        initiator: 'administrator',
        userId: actorId,
        previousValue: environmentValue(before),
        newValue: environmentValue(row),
      },
    ]);
    // A development environment answers its permissions differently (everything allowed).
    if (row.type !== before.type) await publishPlatformEvent(trx, projectId, 'refresh-roles');
    return { id: row.id as number, secret };
  });
  const environment = (await listEnvironments(knex, projectId)).find((e) => e.id === result.id)!;
  return result.secret === undefined ? { environment } : { environment, secret: result.secret };
}

/**
 * Removes an environment. One whose agents already recorded activity is kept: deleting its logs
 * would break the project's audit hash chain.
 *
 * @throws ApiError 409 when activity logs refer to it.
 */
export async function deleteEnvironment(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const before = await findEnvironment(trx, projectId, name);
    if (await trx('activity_logs').where({ environment_id: before.id }).first('id')) {
      throw new ApiError(
        409,
        'conflict',
        `Environment "${name}" has activity logs, which the audit trail keeps; it cannot be removed.`,
      );
    }
    await trx('environments').where({ id: before.id }).delete();
    await publishAccessChange(trx);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'remove',
        resource: 'environment',
        initiator: 'administrator',
        userId: actorId,
        previousValue: environmentValue(before),
      },
    ]);
  });
}
