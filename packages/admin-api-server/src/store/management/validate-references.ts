import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import type { RoleRights } from '@canopy/platform-protocol';

/** The collections (with their actions) the agents of a project's environments declared. */
async function projectCollections(
  trx: Knex.Transaction,
  projectId: number,
): Promise<Map<string, Set<string>>> {
  const rows: { name: string; action_names: string[] }[] = await trx('environment_collections as c')
    .join('environments as e', 'e.id', 'c.environment_id')
    .where('e.project_id', projectId)
    .select('c.name', 'c.action_names');
  const collections = new Map<string, Set<string>>();
  for (const row of rows) {
    const actions = collections.get(row.name) ?? new Set<string>();
    for (const action of row.action_names) actions.add(action);
    collections.set(row.name, actions);
  }
  return collections;
}

function unknownCollection(name: string, known: Map<string, Set<string>>): ApiError {
  const list = [...known.keys()].sort().join(', ');
  return new ApiError(
    400,
    'collection_not_found',
    `No agent of this project declared a collection named "${name}"; ` +
      (list ? `known collections: ${list}.` : 'start an agent on one of its environments first.'),
  );
}

/**
 * Checks that role rights name only collections and actions that an agent of the project
 * declared (in its schema upload).
 *
 * @throws ApiError 400 `collection_not_found` naming the unknown collection or action.
 */
export async function assertKnownRights(
  trx: Knex.Transaction,
  projectId: number,
  rights: RoleRights,
): Promise<void> {
  const known = await projectCollections(trx, projectId);
  for (const name of Object.keys(rights.collections ?? {})) {
    if (!known.has(name)) throw unknownCollection(name, known);
  }
  for (const [name, actions] of Object.entries(rights.actions ?? {})) {
    const declared = known.get(name);
    if (!declared) throw unknownCollection(name, known);
    for (const action of Object.keys(actions)) {
      if (!declared.has(action)) {
        throw new ApiError(
          400,
          'collection_not_found',
          `Collection "${name}" has no action named "${action}"; its actions: ${[...declared].sort().join(', ') || 'none'}.`,
        );
      }
    }
  }
}

/** Checks that team scopes name only declared collections. */
export async function assertKnownScopes(
  trx: Knex.Transaction,
  projectId: number,
  scopes: Record<string, unknown>,
): Promise<void> {
  const known = await projectCollections(trx, projectId);
  for (const name of Object.keys(scopes)) {
    if (!known.has(name)) throw unknownCollection(name, known);
  }
}

/** The id of a role of the project by name. @throws ApiError 404 `role_not_found`. */
export async function roleIdByName(
  trx: Knex.Transaction,
  projectId: number,
  name: string,
): Promise<number> {
  const row = await trx('roles').where({ project_id: projectId, name }).first('id');
  if (!row) throw new ApiError(404, 'role_not_found', `Project has no role named "${name}".`);
  return row.id;
}

/** The ids of teams of the project by name. @throws ApiError 404 `team_not_found`. */
export async function teamIdsByName(
  trx: Knex.Transaction,
  projectId: number,
  names: readonly string[],
): Promise<number[]> {
  const rows: { id: number; name: string }[] = await trx('teams')
    .where({ project_id: projectId })
    .whereIn('name', names)
    .select('id', 'name');
  const missing = names.find((name) => !rows.some((row) => row.name === name));
  if (missing !== undefined) {
    throw new ApiError(404, 'team_not_found', `Project has no team named "${missing}".`);
  }
  return names.map((name) => rows.find((row) => row.name === name)!.id);
}
