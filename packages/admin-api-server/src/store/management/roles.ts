import type { Knex } from 'knex';
import type { ManagedRole, RoleRights } from '@canopy/platform-protocol';
import { publishPlatformEvent } from '../platform-events';
import { publishRightsChanged } from './members';
import { namedResourceStore, type NamedRow } from './named-project-resource';
import { assertKnownRights } from './validate-references';

/** A role as the management API shows it. */
export type RoleItem = ManagedRole;

const roles = namedResourceStore<RoleRights>({
  table: 'roles',
  column: 'rights',
  resource: 'role',
  assertKnown: assertKnownRights,
  holders: (trx, id) =>
    trx('project_memberships').where({ role_id: id }).orderBy('user_id').pluck('user_id'),
  // Agents drop their permissions; a removed role also changes what its members may do. Members
  // holding an edited or removed role are told to reload their rights (docs/public-api.md §8).
  async announce(trx, projectId, change, _id, holders) {
    await publishPlatformEvent(trx, projectId, 'refresh-roles');
    if (change === 'remove') await publishPlatformEvent(trx, projectId, 'refresh-users');
    for (const userId of holders) await publishRightsChanged(trx, projectId, userId);
  },
});

const toItem = ({ id, name, setting }: NamedRow<RoleRights>): RoleItem => ({
  id,
  name,
  rights: setting,
});

/** The roles of a project. */
export async function listRoles(knex: Knex, projectId: number): Promise<RoleItem[]> {
  return (await roles.list(knex, projectId)).map(toItem);
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
  return toItem(
    await roles.create(knex, projectId, actorId, { name: input.name, setting: input.rights }),
  );
}

/** Renames a role or replaces its rights; agents drop their permissions within a second. */
export async function updateRole(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
  input: { name?: string; rights?: RoleRights },
): Promise<RoleItem> {
  return toItem(
    await roles.update(knex, projectId, actorId, name, { name: input.name, setting: input.rights }),
  );
}

/** Removes a role; its members keep their membership without a role. */
export async function deleteRole(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  name: string,
): Promise<void> {
  await roles.remove(knex, projectId, actorId, name);
}
