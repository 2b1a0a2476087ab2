import type { Knex } from 'knex';
import type {
  ConsoleLayout,
  LayoutOrigin,
  PlainConditionTree,
  PublishedLayout,
} from '@canopy/platform-protocol';
import { ApiError } from '../errors';
import { insertAdminLogs } from './admin-log-writer';
import { publishPlatformEvent } from './platform-events';

/** Where a layout, view or segment lives: an environment and a team of a project. */
export interface TeamPlace {
  projectId: number;
  environmentId: number;
  environmentName: string;
  teamId: number;
  teamName: string;
}

interface VersionRow {
  version: number;
  layout: ConsoleLayout;
  origin: LayoutOrigin;
  published_at: Date;
  user_id: number | null;
  email: string | null;
}

const versions = (knex: Knex | Knex.Transaction, place: TeamPlace) =>
  knex('layout_versions as v')
    .leftJoin('users as u', 'u.id', 'v.published_by')
    .where({ 'v.environment_id': place.environmentId, 'v.team_id': place.teamId })
    .select('v.version', 'v.layout', 'v.origin', 'v.published_at', 'u.id as user_id', 'u.email');

function published(teamName: string, row: VersionRow): PublishedLayout {
  return {
    teamName,
    version: row.version,
    layout: row.layout,
    origin: row.origin,
    publishedAt: row.published_at.toISOString(),
    publishedBy: row.user_id === null ? null : { id: row.user_id, email: row.email ?? '' },
  };
}

/** The latest published layout of a team in an environment, if any. */
export async function findPublishedLayout(
  knex: Knex | Knex.Transaction,
  place: TeamPlace,
): Promise<PublishedLayout | undefined> {
  const row: VersionRow | undefined = await versions(knex, place)
    .orderBy('v.version', 'desc')
    .first();
  return row && published(place.teamName, row);
}

/** Every published version, newest first. */
export async function listLayoutVersions(knex: Knex, place: TeamPlace): Promise<PublishedLayout[]> {
  const rows: VersionRow[] = await versions(knex, place).orderBy('v.version', 'desc');
  return rows.map((row) => published(place.teamName, row));
}

/** A user's own draft of a team's layout. */
export async function findLayoutDraft(
  knex: Knex,
  place: TeamPlace,
  userId: number,
): Promise<{ layout: ConsoleLayout; baseVersion: number | null; updatedAt: Date } | undefined> {
  const row = await knex('layout_drafts')
    .where({ environment_id: place.environmentId, team_id: place.teamId, user_id: userId })
    .first('layout', 'base_version', 'updated_at');
  return row && { layout: row.layout, baseVersion: row.base_version, updatedAt: row.updated_at };
}

/** Saves (replaces) a user's draft; `baseVersion` is the published version it starts from. */
export async function saveLayoutDraft(
  knex: Knex,
  place: TeamPlace,
  userId: number,
  layout: ConsoleLayout,
): Promise<{ layout: ConsoleLayout; baseVersion: number | null; updatedAt: Date }> {
  return knex.transaction(async (trx) => {
    const base = await findPublishedLayout(trx, place);
    const [row] = await trx('layout_drafts')
      .insert({
        environment_id: place.environmentId,
        team_id: place.teamId,
        user_id: userId,
        layout: JSON.stringify(layout),
        base_version: base?.version ?? null,
        updated_at: trx.fn.now(),
      })
      .onConflict(['environment_id', 'team_id', 'user_id'])
      .merge(['layout', 'base_version', 'updated_at'])
      .returning(['layout', 'base_version', 'updated_at']);
    return { layout: row.layout, baseVersion: row.base_version, updatedAt: row.updated_at };
  });
}

/** Discards a user's draft; false when there was none. */
export async function deleteLayoutDraft(
  knex: Knex,
  place: TeamPlace,
  userId: number,
): Promise<boolean> {
  const removed = await knex('layout_drafts')
    .where({ environment_id: place.environmentId, team_id: place.teamId, user_id: userId })
    .delete();
  return removed > 0;
}

/**
 * Publishes a new version of a team's layout, with its admin log, in one transaction on the
 * transaction's own connection. `source` says where the document comes from: the actor's draft
 * (then removed), an earlier version of the same team (a revert), or another team's published
 * layout (a copy).
 */
export async function publishLayout(
  knex: Knex,
  place: TeamPlace,
  actorId: number,
  source:
    { kind: 'draft' } | { kind: 'revert'; version: number } | { kind: 'copy'; from: TeamPlace },
): Promise<PublishedLayout> {
  return knex.transaction(async (trx) => {
    // Publications of one team take turns, so that versions follow each other.
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [place.environmentId, place.teamId]);
    let layout: ConsoleLayout;
    let origin: LayoutOrigin;
    if (source.kind === 'draft') {
      const draft = await trx('layout_drafts')
        .where({ environment_id: place.environmentId, team_id: place.teamId, user_id: actorId })
        .first('layout');
      if (!draft) {
        throw new ApiError(
          409,
          'conflict',
          `You have no draft of the layout of team "${place.teamName}" to publish; save one first (PUT …/layout/draft).`,
        );
      }
      layout = draft.layout;
      origin = { kind: 'publish' };
      await trx('layout_drafts')
        .where({ environment_id: place.environmentId, team_id: place.teamId, user_id: actorId })
        .delete();
    } else if (source.kind === 'revert') {
      const row = await trx('layout_versions')
        .where({
          environment_id: place.environmentId,
          team_id: place.teamId,
          version: source.version,
        })
        .first('layout');
      if (!row) {
        throw new ApiError(
          404,
          'layout_version_not_found',
          `Team "${place.teamName}" has no published layout version ${source.version} in this environment.`,
        );
      }
      layout = row.layout;
      origin = { kind: 'revert', version: source.version };
    } else {
      const from = await findPublishedLayout(trx, source.from);
      if (!from) {
        throw new ApiError(
          409,
          'conflict',
          `Team "${source.from.teamName}" has no published layout in this environment to copy.`,
        );
      }
      layout = from.layout;
      origin = { kind: 'copy', teamName: source.from.teamName, version: from.version };
    }
    const latest = await trx('layout_versions')
      .where({ environment_id: place.environmentId, team_id: place.teamId })
      .max({ version: 'version' })
      .first();
    const version = Number(latest?.version ?? 0) + 1;
    await trx('layout_versions').insert({
      project_id: place.projectId,
      environment_id: place.environmentId,
      team_id: place.teamId,
      version,
      layout: JSON.stringify(layout),
      origin: JSON.stringify(origin),
      published_by: actorId,
    });
    await logConsoleChange(trx, place, actorId, {
      type: 'update',
      setting: 'layout',
      name: null,
      version,
    });
    return (await findPublishedLayout(trx, place))!;
  });
}

/**
 * The admin log of a change to what a team's Console shows (resource `console`): which setting,
 * of which team and environment.
 */
export async function logConsoleChange(
  trx: Knex.Transaction,
  place: TeamPlace,
  actorId: number,
  change: {
    type: 'add' | 'update' | 'remove';
    setting: 'layout' | 'segment' | 'default-view' | 'view';
    name: string | null;
    version: number | null;
  },
): Promise<void> {
  const value = {
    environmentName: place.environmentName,
    teamName: place.teamName,
    setting: change.setting,
    name: change.name,
    version: change.version,
  };
  await insertAdminLogs(trx, place.projectId, [
    {
      type: change.type,
      resource: 'console',
      initiator: 'administrator',
      userId: actorId,
      previousValue: change.type === 'add' ? null : value,
      newValue: change.type === 'remove' ? null : value,
    },
  ]);
}

/* Team segments ------------------------------------------------------------------------------ */

interface SegmentRow {
  id: number;
  name: string;
  collection: string;
  filter: PlainConditionTree;
  created_at: Date;
  updated_at: Date;
}

/** A team segment as routes answer it. */
export interface TeamSegmentRecord {
  id: number;
  name: string;
  collection: string;
  filter: PlainConditionTree;
  createdAt: Date;
  updatedAt: Date;
}

const SEGMENT_COLUMNS = ['id', 'name', 'collection', 'filter', 'created_at', 'updated_at'];
const segmentRecord = (row: SegmentRow): TeamSegmentRecord => ({
  id: row.id,
  name: row.name,
  collection: row.collection,
  filter: row.filter,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The segments of a team in an environment, by collection then name. */
export async function listTeamSegments(
  knex: Knex,
  place: TeamPlace,
  collection?: string,
): Promise<TeamSegmentRecord[]> {
  const rows: SegmentRow[] = await knex('team_segments')
    .where({ environment_id: place.environmentId, team_id: place.teamId })
    .modify((query) => {
      if (collection !== undefined) query.andWhere({ collection });
    })
    .orderBy(['collection', 'name'])
    .select(SEGMENT_COLUMNS);
  return rows.map(segmentRecord);
}

function segmentNotFound(place: TeamPlace, id: number): ApiError {
  return new ApiError(
    404,
    'segment_not_found',
    `Team "${place.teamName}" has no segment ${id} in environment "${place.environmentName}".`,
  );
}

function nameTaken(place: TeamPlace, collection: string, name: string): ApiError {
  return new ApiError(
    409,
    'conflict',
    `Team "${place.teamName}" already has a segment named "${name}" on collection "${collection}".`,
  );
}

/** Has the agents of the project refetch the team's rendering (its segments changed). */
async function refreshRendering(trx: Knex.Transaction, place: TeamPlace): Promise<void> {
  await publishPlatformEvent(trx, place.projectId, 'refresh-renderings', {
    renderingIds: [place.teamId],
  });
}

/** Writes a team segment (new when `id` is absent), with its admin log and a rendering refresh. */
export async function saveTeamSegment(
  knex: Knex,
  place: TeamPlace,
  actorId: number,
  input: { id?: number; name?: string; collection?: string; filter?: PlainConditionTree },
): Promise<TeamSegmentRecord> {
  return knex.transaction(async (trx) => {
    const scope = { environment_id: place.environmentId, team_id: place.teamId };
    const current: SegmentRow | undefined =
      input.id === undefined
        ? undefined
        : await trx('team_segments')
            .where({ ...scope, id: input.id })
            .forUpdate()
            .first(SEGMENT_COLUMNS);
    if (input.id !== undefined && !current) throw segmentNotFound(place, input.id);
    const name = input.name ?? current!.name;
    const collection = input.collection ?? current!.collection;
    const clash = await trx('team_segments')
      .where({ ...scope, collection, name })
      .whereNot('id', input.id ?? 0)
      .first('id');
    if (clash) throw nameTaken(place, collection, name);
    const values = {
      name,
      collection,
      filter: JSON.stringify(input.filter ?? current!.filter),
      updated_at: trx.fn.now(),
    };
    const [row] = current
      ? await trx('team_segments')
          .where({ id: current.id })
          .update(values)
          .returning(SEGMENT_COLUMNS)
      : await trx('team_segments')
          .insert({ ...values, ...scope, project_id: place.projectId, created_by: actorId })
          .returning(SEGMENT_COLUMNS);
    await logConsoleChange(trx, place, actorId, {
      type: current ? 'update' : 'add',
      setting: 'segment',
      name: `${collection}.${name}`,
      version: null,
    });
    await refreshRendering(trx, place);
    return segmentRecord(row as SegmentRow);
  });
}

/** Deletes a team segment, with its admin log and a rendering refresh. */
export async function deleteTeamSegment(
  knex: Knex,
  place: TeamPlace,
  actorId: number,
  id: number,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const [row] = await trx('team_segments')
      .where({ environment_id: place.environmentId, team_id: place.teamId, id })
      .delete()
      .returning(['name', 'collection']);
    if (!row) throw segmentNotFound(place, id);
    await logConsoleChange(trx, place, actorId, {
      type: 'remove',
      setting: 'segment',
      name: `${row.collection}.${row.name}`,
      version: null,
    });
    await refreshRendering(trx, place);
  });
}

/**
 * A team's segments per collection, in the shape agents receive them beside the SQL segments
 * (`filterSegments`, platform protocol 5.3).
 */
export async function renderingFilterSegments(
  knex: Knex,
  environmentId: number,
  teamId: number,
): Promise<Record<string, { id: string; name: string; filter: PlainConditionTree }[]>> {
  const rows: SegmentRow[] = await knex('team_segments')
    .where({ environment_id: environmentId, team_id: teamId })
    .orderBy(['collection', 'name'])
    .select(SEGMENT_COLUMNS);
  const byCollection: Record<string, { id: string; name: string; filter: PlainConditionTree }[]> =
    {};
  for (const row of rows) {
    (byCollection[row.collection] ??= []).push({
      id: `${row.collection}.${row.name}`,
      name: row.name,
      filter: row.filter,
    });
  }
  return byCollection;
}
