import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import type { RoleRights } from '../model/role-rights';
import { publishPlatformEvent } from '../platform-events';
import { assertKnownRights } from './validate-references';

/** A role as the management API shows it. */
export interface RoleItem {
  id: number;
  name: string;
  rights: RoleRights;
}

const toItem = (row: { id: number; name: string; rights: RoleRights }): RoleItem => ({
  id: row.id,
  name: row.name,
  rights: row.rights ?? {},
});

async function findRole(trx: Knex.Transaction, projectId: number, name: string) {
  const row = await trx('roles')
    .where({ project_id: projectId, name })
    .forUpdate()
    .first('id', 'name', 'rights');
  if (!row) throw new ApiError(404, 'role_not_found', `Project has no role named "${name}".`);
  return row as { id: number; name: string; rights: RoleRights };
}

/** The roles of a project. */
export async function listRoles(knex: Knex, projectId: number): Promise<RoleItem[]> {
  return (
    await knex('roles')
      .where({ project_id: projectId })
      .orderBy('id')
      .select('id', 'name', 'rights')
  ).map(toItem);
}

/**
 * Creates a role, with its admin log and a `refresh-roles` event, in one transaction.
 *
 * @throws ApiError 409 when the name is taken, 400 when rights name unknown collections.
 */
export async function createRole(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  input: { name: string; rights?: RoleRights },
): Promise<RoleItem> {
  return knex.transaction(async (trx) => {
    const rights = input.rights ?? {};
    await assertKnownRights(trx, projectId, rights);
    const [row] = await trx('roles')
      .insert({ project_id: projectId, name: input.name, rights: JSON.stringify(rights) })
      .onConflict(['project_id', 'name'])
      .ignore()
      .returning(['id', 'name', 'rights']);
    if (!row) throw new ApiError(409, 'conflict', `A role named "${input.name}" already exists.`);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'add',
        resource: 'role',
        initiator: 'administrator',
        userId: actorId,
        newValue: { name: row.name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-roles');
    return toItem(row);
  });
}

/** Renames a role or replaces its rights; agents drop their permissions within a second. */
export async function updateRole(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
  input: { name?: string; rights?: RoleRights },
): Promise<RoleItem> {
  return knex.transaction(async (trx) => {
    const before = await findRole(trx, projectId, name);
    if (input.rights) await assertKnownRights(trx, projectId, input.rights);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.rights !== undefined ? { rights: JSON.stringify(input.rights) } : {}),
    };
    const [row] =
      Object.keys(changes).length === 0
        ? [before]
        : await trx('roles')
            .where({ id: before.id })
            .update(changes)
            .returning(['id', 'name', 'rights']);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'update',
        resource: 'role',
        initiator: 'administrator',
        userId: actorId,
        previousValue: { name: before.name },
        newValue: { name: row.name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-roles');
    return toItem(row);
  });
}

/** Removes a role; its members keep their membership without a role. */
export async function deleteRole(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const before = await findRole(trx, projectId, name);
    await trx('roles').where({ id: before.id }).delete();
    await insertAdminLogs(trx, projectId, [
      {
        type: 'remove',
        resource: 'role',
        initiator: 'administrator',
        userId: actorId,
        previousValue: { name: before.name },
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-roles');
    await publishPlatformEvent(trx, projectId, 'refresh-users');
  });
}
