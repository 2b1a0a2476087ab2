import type { Knex } from 'knex';
import type { InboxItem, MemberSuggestion } from '@canopy/platform-protocol';
import { invalidBody } from '../errors';
import { publishConsoleEvent } from './console-events';

/**
 * Mentions in a note message: `@` followed by a user id (`@12`) or an email address
 * (`@ada@example.com`), not preceded by a word character or `@` (so an email address written in
 * the text mentions nobody).
 */
const MENTION =
  /(?<![\w@.])@(\d{1,9}(?![\w@])|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** The mentions written in a message, as written (ids and lower-cased emails), once each. */
export function mentionsIn(content: string): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(MENTION)) found.add(match[1]!.toLowerCase());
  return [...found];
}

/**
 * The user ids of the members of `projectId` mentioned in `content`. A mention that names no
 * member of the project (or no user at all) is a 400 naming it, under `property`.
 */
export async function resolveMentions(
  knex: Knex,
  projectId: number,
  content: string,
  property: string,
): Promise<number[]> {
  const mentions = mentionsIn(content);
  if (mentions.length === 0) return [];
  const ids = mentions.filter((m) => /^\d+$/.test(m)).map(Number);
  const emails = mentions.filter((m) => !/^\d+$/.test(m));
  const members: { id: number; email: string }[] = await knex('project_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.project_id', projectId)
    .where((q) => {
      q.whereIn('u.id', ids);
      if (emails.length > 0) q.orWhereRaw('lower(u.email) = any(?)', [emails]);
    })
    .select('u.id', 'u.email');
  const byKey = new Map<string, number>();
  for (const member of members) {
    byKey.set(String(member.id), member.id);
    byKey.set(member.email.toLowerCase(), member.id);
  }
  const unknown = mentions.find((m) => !byKey.has(m));
  if (unknown !== undefined) {
    throw invalidBody(property, `mentions "@${unknown}", who is not a member of this project`);
  }
  return [...new Set(mentions.map((m) => byKey.get(m)!))];
}

/** Where a message was written. */
export interface MentionPlace {
  projectId: number;
  environmentId: number;
  noteId: number;
  messageId: number;
  collectionName: string | null;
  recordId: string;
  /** The author: mentioning oneself adds nothing to one's inbox. */
  authorId: number;
}

/**
 * Adds an inbox item and a `mention` event for each mentioned user, in the transaction of the
 * message (its own connection: the embedded store has only one).
 */
export async function recordMentions(
  trx: Knex.Transaction,
  place: MentionPlace,
  userIds: readonly number[],
): Promise<void> {
  for (const userId of userIds) {
    if (userId === place.authorId) continue;
    const [item] = await trx('inbox_items')
      .insert({
        project_id: place.projectId,
        environment_id: place.environmentId,
        user_id: userId,
        kind: 'mention',
        note_id: place.noteId,
        message_id: place.messageId,
        actor_id: place.authorId,
      })
      .returning(['id']);
    await publishConsoleEvent(trx, {
      projectId: place.projectId,
      environmentId: place.environmentId,
      userId,
      event: 'mention',
      data: {
        inboxItemId: item.id as number,
        noteId: place.noteId,
        collectionName: place.collectionName,
        recordId: place.recordId,
        byUserId: place.authorId,
      },
    });
  }
}

/**
 * Adds an unread `approval` inbox item for each user, in the transaction of the request: the
 * item id of each, by user id.
 */
export async function addApprovalInboxItems(
  trx: Knex.Transaction,
  place: { projectId: number; environmentId: number; approvalId: number; requesterId: number },
  userIds: readonly number[],
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows: { id: number; user_id: number }[] = await trx('inbox_items')
    .insert(
      userIds.map((userId) => ({
        project_id: place.projectId,
        environment_id: place.environmentId,
        user_id: userId,
        kind: 'approval',
        approval_id: place.approvalId,
        actor_id: place.requesterId,
      })),
    )
    .returning(['id', 'user_id']);
  return new Map(rows.map((row) => [row.user_id, row.id]));
}

/**
 * A request was decided: its inbox items are marked read for everyone (they stay, showing the
 * decision). Returns the users who had one.
 */
export async function closeApprovalInboxItems(
  trx: Knex.Transaction,
  approvalId: number,
): Promise<number[]> {
  await trx('inbox_items')
    .where({ approval_id: approvalId })
    .whereNull('read_at')
    .update({ read_at: trx.fn.now() });
  return trx('inbox_items').where({ approval_id: approvalId }).orderBy('user_id').pluck('user_id');
}

/** Who and where: an inbox is one user's in one environment. */
export interface InboxOwner {
  projectId: number;
  environmentId: number;
  userId: number;
}

function ownedBy(knex: Knex, owner: InboxOwner) {
  return knex('inbox_items').where({
    project_id: owner.projectId,
    environment_id: owner.environmentId,
    user_id: owner.userId,
  });
}

/** How many items of the inbox are unread. */
export async function unreadCount(knex: Knex, owner: InboxOwner): Promise<number> {
  const row = await ownedBy(knex, owner).whereNull('read_at').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** A page of the inbox, newest first (ids below `beforeId`). */
export async function listInbox(
  knex: Knex,
  owner: InboxOwner,
  options: { limit: number; beforeId?: number; unreadOnly?: boolean },
): Promise<{ items: InboxItem[]; hasMore: boolean }> {
  const query = knex('inbox_items as i')
    .leftJoin('notes as n', 'n.id', 'i.note_id')
    .leftJoin('action_approvals as a', 'a.id', 'i.approval_id')
    .leftJoin('users as u', 'u.id', 'i.actor_id')
    .where({
      'i.project_id': owner.projectId,
      'i.environment_id': owner.environmentId,
      'i.user_id': owner.userId,
    })
    .orderBy('i.id', 'desc')
    .limit(options.limit + 1)
    .select(
      'i.id',
      'i.kind',
      'i.created_at',
      'i.read_at',
      'n.id as note_id',
      'n.title',
      'n.collection_name',
      'n.record_id',
      'a.id as approval_id',
      'a.collection_name as approval_collection',
      'a.action_name',
      'a.record_ids',
      'a.status',
      'u.id as actor_id',
      'u.email as actor_email',
      'u.username as actor_name',
    );
  if (options.beforeId !== undefined) query.where('i.id', '<', options.beforeId);
  if (options.unreadOnly) query.whereNull('i.read_at');
  const rows = (await query) as {
    id: number;
    kind: 'mention' | 'approval';
    created_at: Date;
    read_at: Date | null;
    note_id: number;
    title: string;
    collection_name: string | null;
    record_id: string;
    /** A bigint column: read as a string. */
    approval_id: string;
    approval_collection: string;
    action_name: string;
    record_ids: string[];
    status: 'pending' | 'approved' | 'rejected';
    actor_id: number | null;
    actor_email: string | null;
    actor_name: string | null;
  }[];
  const hasMore = rows.length > options.limit;
  return {
    hasMore,
    items: rows.slice(0, options.limit).map((row): InboxItem => {
      const common = {
        object: 'inbox-item' as const,
        id: row.id,
        by:
          row.actor_id === null
            ? null
            : { id: row.actor_id, email: row.actor_email!, name: row.actor_name! },
        createdAt: row.created_at.toISOString(),
        readAt: row.read_at === null ? null : row.read_at.toISOString(),
      };
      if (row.kind === 'approval') {
        return {
          ...common,
          kind: 'approval',
          note: null,
          approval: {
            id: Number(row.approval_id),
            collectionName: row.approval_collection,
            actionName: row.action_name,
            recordIds: row.record_ids,
            status: row.status,
          },
        };
      }
      return {
        ...common,
        kind: 'mention',
        approval: null,
        note: {
          id: row.note_id,
          title: row.title,
          collectionName: row.collection_name,
          recordId: row.record_id,
        },
      };
    }),
  };
}

/** Marks one item read: false when the inbox has no such item. */
export async function markInboxItemRead(
  knex: Knex,
  owner: InboxOwner,
  itemId: number,
): Promise<boolean> {
  const found = await ownedBy(knex, owner).where({ id: itemId }).first('id');
  if (!found) return false;
  await ownedBy(knex, owner)
    .where({ id: itemId })
    .whereNull('read_at')
    .update({ read_at: knex.fn.now() });
  return true;
}

/** Marks every unread item read; returns how many were. */
export async function markInboxRead(knex: Knex, owner: InboxOwner): Promise<number> {
  return ownedBy(knex, owner).whereNull('read_at').update({ read_at: knex.fn.now() });
}

/** Members of a project whose name or email starts with `prefix` (case-insensitive), by name. */
export async function suggestMembers(
  knex: Knex,
  projectId: number,
  prefix: string,
  limit: number,
): Promise<MemberSuggestion[]> {
  const like = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows: { id: number; email: string; username: string }[] = await knex(
    'project_memberships as m',
  )
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.project_id', projectId)
    .where((q) =>
      q
        .whereRaw('lower(u.username) like ?', [like])
        .orWhereRaw('lower(u.email) like ?', [like])
        .orWhereRaw("lower(u.username) like '% ' || ?", [like]),
    )
    .orderBy([{ column: 'u.username' }, { column: 'u.id' }])
    .limit(limit)
    .select('u.id', 'u.email', 'u.username');
  return rows.map((row) => ({
    object: 'member-suggestion',
    id: row.id,
    email: row.email,
    name: row.username,
  }));
}
