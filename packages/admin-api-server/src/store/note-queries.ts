import type { Knex } from 'knex';
import type { RoleRights } from '@canopy/platform-protocol';
import { applyDateFilter } from '../database/date-filter';
import type { DateFilter } from '../validation/query-schemas';

/** Filters of the note list. */
export interface NoteFilters {
  projectId: number;
  environmentId: number;
  userEmail?: string;
  userId?: number;
  teamName?: string;
  collectionName?: string;
  recordId?: string;
  createdAt: DateFilter;
  updatedAt: DateFilter;
  archivedAt: DateFilter;
  /** Keyset position: only notes with a smaller id. */
  beforeId?: number;
  /**
   * What the caller may not see: `'all'` (no note), or the collections whose notes are left out
   * (notes without a collection too); undefined for a caller who sees every note.
   */
  hidden?: 'all' | readonly string[];
}

/** A note joined with its creator and team. */
export interface NoteRow {
  id: number;
  project_id: number;
  environment_id: number;
  team_id: number;
  title: string;
  record_id: string;
  collection_name: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  user_id: number;
  user_email: string;
  user_username: string;
  team_name: string;
}

/** A message joined with its author. */
export interface NoteMessageRow {
  id: number;
  note_id: number;
  content: string;
  created_at: Date;
  user_id: number;
  user_email: string;
  user_username: string;
}

function noteQuery(knex: Knex): Knex.QueryBuilder {
  return knex('notes as n')
    .join('users as u', 'u.id', 'n.user_id')
    .join('teams as t', 't.id', 'n.team_id')
    .select(
      'n.id',
      'n.project_id',
      'n.environment_id',
      'n.team_id',
      'n.title',
      'n.record_id',
      'n.collection_name',
      'n.version',
      'n.created_at',
      'n.updated_at',
      'n.archived_at',
      'u.id as user_id',
      'u.email as user_email',
      'u.username as user_username',
      't.name as team_name',
    );
}

function messageQuery(knex: Knex): Knex.QueryBuilder {
  return knex('note_messages as m')
    .join('users as u', 'u.id', 'm.user_id')
    .select(
      'm.id',
      'm.note_id',
      'm.content',
      'm.created_at',
      'u.id as user_id',
      'u.email as user_email',
      'u.username as user_username',
    );
}

/** One message with its author (gone if its note was deleted meanwhile). */
export async function findNoteMessage(knex: Knex, id: number): Promise<NoteMessageRow | undefined> {
  return messageQuery(knex).where('m.id', id).first();
}

/** Messages of the given notes, oldest first. */
export async function messagesOf(
  knex: Knex,
  noteIds: readonly number[],
): Promise<Map<number, NoteMessageRow[]>> {
  const byNote = new Map<number, NoteMessageRow[]>(noteIds.map((id) => [id, []]));
  if (noteIds.length === 0) return byNote;
  const rows: NoteMessageRow[] = await messageQuery(knex)
    .whereIn('m.note_id', noteIds)
    .orderBy('m.id');
  for (const row of rows) byNote.get(row.note_id)?.push(row);
  return byNote;
}

/** One page of notes (highest id first) with their messages. */
export async function listNotes(
  knex: Knex,
  filters: NoteFilters,
  limit: number,
): Promise<{ rows: NoteRow[]; messages: Map<number, NoteMessageRow[]>; hasMore: boolean }> {
  const query = noteQuery(knex).where('n.environment_id', filters.environmentId);
  if (filters.userId !== undefined) query.where('n.user_id', filters.userId);
  if (filters.userEmail !== undefined) {
    query.where(
      'n.user_id',
      knex('users').whereRaw('lower(email) = lower(?)', [filters.userEmail]).select('id'),
    );
  }
  if (filters.teamName !== undefined) {
    query.where(
      'n.team_id',
      knex('teams').where({ project_id: filters.projectId, name: filters.teamName }).select('id'),
    );
  }
  if (filters.collectionName !== undefined)
    query.where('n.collection_name', filters.collectionName);
  if (filters.recordId !== undefined) query.where('n.record_id', filters.recordId);
  applyDateFilter(query, 'n.created_at', filters.createdAt);
  applyDateFilter(query, 'n.updated_at', filters.updatedAt);
  applyDateFilter(query, 'n.archived_at', filters.archivedAt);
  if (filters.beforeId !== undefined) query.where('n.id', '<', filters.beforeId);
  if (filters.hidden === 'all') query.whereRaw('false');
  else if (filters.hidden !== undefined) {
    query.whereNotNull('n.collection_name');
    if (filters.hidden.length > 0) query.whereNotIn('n.collection_name', filters.hidden);
  }
  const rows: NoteRow[] = await query.orderBy('n.id', 'desc').limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    rows: page,
    messages: await messagesOf(
      knex,
      page.map((row) => row.id),
    ),
    hasMore: rows.length > limit,
  };
}

/** A note of an environment by id, without its messages. */
export async function findNoteRow(
  knex: Knex,
  environmentId: number,
  id: number,
): Promise<NoteRow | undefined> {
  return noteQuery(knex).where({ 'n.environment_id': environmentId, 'n.id': id }).first();
}

/** A note of an environment by id, with its messages. */
export async function findNote(
  knex: Knex,
  environmentId: number,
  id: number,
): Promise<{ row: NoteRow; messages: NoteMessageRow[] } | undefined> {
  const row = await findNoteRow(knex, environmentId, id);
  if (!row) return undefined;
  return { row, messages: (await messagesOf(knex, [id])).get(id) ?? [] };
}

/** What decides which notes a member may see: their level, role rights and teams' scopes. */
export interface NoteViewerRow {
  permissionLevel: string;
  /** The role's rights; null for a member without a role. */
  rights: RoleRights | null;
  /** The member's teams (the renderings they may sign in to an agent with) and their scopes. */
  teams: { id: number; name: string; scopes: Record<string, unknown> }[];
}

/** The membership of a user in a project as notes authorize it; undefined for a non-member. */
export async function findNoteViewer(
  knex: Knex,
  projectId: number,
  userId: number,
): Promise<NoteViewerRow | undefined> {
  const member = await knex('project_memberships as m')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId })
    .first('m.id', 'm.permission_level', 'm.role_id', 'r.rights');
  if (!member) return undefined;
  const teams: { id: number; name: string; scopes: Record<string, unknown> | null }[] = await knex(
    'project_membership_teams as mt',
  )
    .join('teams as t', 't.id', 'mt.team_id')
    .where('mt.membership_id', member.id)
    .orderBy('t.id')
    .select('t.id', 't.name', 't.scopes');
  return {
    permissionLevel: member.permission_level,
    rights: member.role_id === null ? null : ((member.rights ?? {}) as RoleRights),
    teams: teams.map((team) => ({ ...team, scopes: team.scopes ?? {} })),
  };
}
