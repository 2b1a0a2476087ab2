import type { Knex } from 'knex';
import type { SavedView } from '@canopy/platform-protocol';
import { ApiError } from '../errors';
import { logConsoleChange, type TeamPlace } from './console-layouts';

/** What a saved view holds. */
export type SavedViewInput = Pick<
  SavedView,
  'name' | 'collection' | 'filter' | 'search' | 'sort' | 'columns' | 'segment'
>;

/** A saved view as routes answer it. */
export interface SavedViewRecord extends SavedViewInput {
  id: number;
  teamId: number | null;
  teamName: string | null;
  owner: { id: number; email: string } | null;
  defaultForTeams: string[];
  createdAt: Date;
  updatedAt: Date;
}

const VIEW_COLUMNS = [
  'v.id',
  'v.name',
  'v.collection',
  'v.filter',
  'v.search',
  'v.sort',
  'v.columns',
  'v.segment',
  'v.team_id',
  't.name as team_name',
  'v.owner_id',
  'u.email as owner_email',
  'v.created_at',
  'v.updated_at',
];

function views(knex: Knex | Knex.Transaction, environmentId: number) {
  return knex('saved_views as v')
    .leftJoin('teams as t', 't.id', 'v.team_id')
    .leftJoin('users as u', 'u.id', 'v.owner_id')
    .where('v.environment_id', environmentId)
    .select(VIEW_COLUMNS)
    .select(
      knex.raw(
        `coalesce((SELECT array_agg(dt.name ORDER BY dt.name) FROM team_default_views d
           JOIN teams dt ON dt.id = d.team_id WHERE d.view_id = v.id), '{}') AS default_for`,
      ),
    );
}

interface ViewRow extends SavedViewInput {
  id: number;
  team_id: number | null;
  team_name: string | null;
  owner_id: number | null;
  owner_email: string | null;
  default_for: string[];
  created_at: Date;
  updated_at: Date;
}

const record = (row: ViewRow): SavedViewRecord => ({
  id: row.id,
  name: row.name,
  collection: row.collection,
  filter: row.filter,
  search: row.search,
  sort: row.sort,
  columns: row.columns,
  segment: row.segment,
  teamId: row.team_id,
  teamName: row.team_name,
  owner: row.owner_id === null ? null : { id: row.owner_id, email: row.owner_email ?? '' },
  defaultForTeams: row.default_for,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The views of a collection a user sees: their own, and those shared with one of `teamIds`
 * (every team of the project for an admin).
 */
export async function listSavedViews(
  knex: Knex,
  environmentId: number,
  input: { userId: number; teamIds: number[]; collection: string },
): Promise<SavedViewRecord[]> {
  const rows: ViewRow[] = await views(knex, environmentId)
    .andWhere('v.collection', input.collection)
    .andWhere((query) =>
      query.where('v.owner_id', input.userId).orWhereIn('v.team_id', input.teamIds),
    )
    .orderBy([{ column: 'v.name' }, { column: 'v.id' }]);
  return rows.map(record);
}

/** One view of an environment, whoever owns it. */
export async function findSavedView(
  knex: Knex | Knex.Transaction,
  environmentId: number,
  id: number,
): Promise<SavedViewRecord | undefined> {
  const row: ViewRow | undefined = await views(knex, environmentId).andWhere('v.id', id).first();
  return row && record(row);
}

/** The 404 of a view the caller may not see, or that does not exist. */
export function viewNotFound(id: number): ApiError {
  return new ApiError(404, 'view_not_found', `No saved view ${id} is visible to you here.`);
}

const columnsOf = (input: Partial<SavedViewInput>) => ({
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.collection !== undefined ? { collection: input.collection } : {}),
  ...(input.filter !== undefined ? { filter: JSON.stringify(input.filter) } : {}),
  ...(input.search !== undefined ? { search: input.search } : {}),
  ...(input.sort !== undefined ? { sort: JSON.stringify(input.sort) } : {}),
  ...(input.columns !== undefined ? { columns: JSON.stringify(input.columns) } : {}),
  ...(input.segment !== undefined ? { segment: input.segment } : {}),
});

/** Creates a view owned by `ownerId`, personal (`teamId` null) or shared with a team. */
export async function createSavedView(
  knex: Knex,
  place: { projectId: number; environmentId: number },
  ownerId: number,
  teamId: number | null,
  input: SavedViewInput,
): Promise<SavedViewRecord> {
  return knex.transaction(async (trx) => {
    const [row] = await trx('saved_views')
      .insert({
        ...columnsOf(input),
        project_id: place.projectId,
        environment_id: place.environmentId,
        owner_id: ownerId,
        team_id: teamId,
      })
      .returning('id');
    return (await findSavedView(trx, place.environmentId, row.id))!;
  });
}

/**
 * Changes a view. Moving it to another team (or making it personal) drops it as a default of
 * teams it is no longer shared with.
 */
export async function updateSavedView(
  knex: Knex,
  environmentId: number,
  id: number,
  input: Partial<SavedViewInput> & { teamId?: number | null },
): Promise<SavedViewRecord> {
  return knex.transaction(async (trx) => {
    await trx('saved_views')
      .where({ id, environment_id: environmentId })
      .update({
        ...columnsOf(input),
        ...(input.teamId !== undefined ? { team_id: input.teamId } : {}),
        updated_at: trx.fn.now(),
      });
    // A default must be a view of that collection shared with that team.
    await trx.raw(
      `DELETE FROM team_default_views d USING saved_views s
        WHERE d.view_id = s.id AND s.id = ?
          AND (s.team_id IS DISTINCT FROM d.team_id OR s.collection <> d.collection)`,
      [id],
    );
    return (await findSavedView(trx, environmentId, id))!;
  });
}

/**
 * Deletes a view (its default places go with it). An admin deleting a view shared with a team
 * leaves an admin log.
 */
export async function deleteSavedView(
  knex: Knex,
  view: SavedViewRecord,
  place: { projectId: number; environmentId: number; environmentName: string },
  actorId: number,
): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('saved_views').where({ id: view.id, environment_id: place.environmentId }).delete();
    if (view.owner?.id !== actorId && view.teamId !== null) {
      await logConsoleChange(
        trx,
        { ...place, teamId: view.teamId, teamName: view.teamName ?? '' },
        actorId,
        { type: 'remove', setting: 'view', name: `${view.collection}.${view.name}`, version: null },
      );
    }
  });
}

/** Makes a view shared with the team its default for the view's collection (or clears it). */
export async function setTeamDefaultView(
  knex: Knex,
  place: TeamPlace,
  actorId: number,
  collection: string,
  view: SavedViewRecord | null,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const key = { environment_id: place.environmentId, team_id: place.teamId, collection };
    if (view === null) {
      const removed = await trx('team_default_views').where(key).delete();
      if (removed === 0) return;
    } else {
      await trx('team_default_views')
        .insert({ ...key, view_id: view.id })
        .onConflict(['environment_id', 'team_id', 'collection'])
        .merge(['view_id']);
    }
    await logConsoleChange(trx, place, actorId, {
      type: view === null ? 'remove' : 'update',
      setting: 'default-view',
      name: view === null ? collection : `${collection}.${view.name}`,
      version: null,
    });
  });
}
