import type { Knex } from 'knex';
import { insertActivityLogs } from './activity-log-writer';

/** What a note write needs to know about its author and place. */
export interface NoteAuthor {
  projectId: number;
  environmentId: number;
  userId: number;
}

/**
 * The new `updated_at` of a note write: the clock when the row lock was obtained (not the start
 * of the transaction, which may precede a write that committed first), never before the last one.
 */
const BUMPED_UPDATED_AT = 'greatest(updated_at, clock_timestamp())';

function noteLabel(verb: string, collectionName: string | null, recordId: string): string {
  return `${verb} on ${collectionName ?? 'a record'} #${recordId}`;
}

/**
 * Creates a note with its first message, and the `createNote` activity log, in one transaction.
 * @returns the new note id.
 */
export async function createNote(
  knex: Knex,
  author: NoteAuthor,
  input: {
    teamId: number;
    title: string;
    recordId: string;
    collectionName: string | null;
    content: string;
  },
): Promise<number> {
  return knex.transaction(async (trx) => {
    const [note] = await trx('notes')
      .insert({
        project_id: author.projectId,
        environment_id: author.environmentId,
        user_id: author.userId,
        team_id: input.teamId,
        collection_name: input.collectionName,
        record_id: input.recordId,
        title: input.title,
      })
      .returning(['id', 'created_at']);
    await trx('note_messages').insert({
      note_id: note.id,
      user_id: author.userId,
      content: input.content,
      created_at: note.created_at,
    });
    await insertActivityLogs(trx, author.projectId, [
      {
        environmentId: author.environmentId,
        userId: author.userId,
        teamId: input.teamId,
        type: 'write',
        action: 'createNote',
        collectionName: input.collectionName,
        recordIds: [input.recordId],
        label: noteLabel('created a note', input.collectionName, input.recordId),
      },
    ]);
    return note.id as number;
  });
}

/** The note columns a write needs. */
interface LockedNote {
  id: number;
  team_id: number;
  collection_name: string | null;
  record_id: string;
  version: number;
  updated_at: Date;
}

/**
 * Adds a message: bumps the note's version and `updated_at` (the row lock makes concurrent
 * messages take turns, none lost), inserts the message and the `createMessage` activity log.
 * @returns the message id and the note's new version, or undefined when the note is gone.
 */
export async function addNoteMessage(
  knex: Knex,
  author: NoteAuthor,
  noteId: number,
  content: string,
): Promise<{ messageId: number; version: number } | undefined> {
  return knex.transaction(async (trx) => {
    const [note] = (await trx('notes')
      .where({ id: noteId, environment_id: author.environmentId })
      .update({ version: trx.raw('version + 1'), updated_at: trx.raw(BUMPED_UPDATED_AT) })
      .returning([
        'id',
        'team_id',
        'collection_name',
        'record_id',
        'version',
        'updated_at',
      ])) as LockedNote[];
    if (!note) return undefined;
    // The message is as new as the note's update: concurrent messages take the order of the lock.
    const [message] = await trx('note_messages')
      .insert({ note_id: noteId, user_id: author.userId, content, created_at: note.updated_at })
      .returning(['id']);
    await insertActivityLogs(trx, author.projectId, [
      {
        environmentId: author.environmentId,
        userId: author.userId,
        teamId: note.team_id,
        type: 'write',
        action: 'createMessage',
        collectionName: note.collection_name,
        recordIds: [note.record_id],
        label: noteLabel('added a message to a note', note.collection_name, note.record_id),
      },
    ]);
    return { messageId: message.id as number, version: note.version };
  });
}

/** Outcome of a conditional write. */
export type ConditionalResult = 'done' | 'not_found' | 'stale';

/**
 * Updates the title and/or archive state, only if the version still matches `expectedVersion`
 * (when given).
 */
export async function updateNote(
  knex: Knex,
  environmentId: number,
  noteId: number,
  changes: { title?: string; archived?: boolean },
  expectedVersion?: number,
): Promise<ConditionalResult> {
  const update: Record<string, unknown> = {
    version: knex.raw('version + 1'),
    updated_at: knex.raw(BUMPED_UPDATED_AT),
  };
  if (changes.title !== undefined) update.title = changes.title;
  if (changes.archived === true) update.archived_at = knex.raw('coalesce(archived_at, now())');
  if (changes.archived === false) update.archived_at = null;
  const query = knex('notes').where({ id: noteId, environment_id: environmentId });
  if (expectedVersion !== undefined) query.andWhere({ version: expectedVersion });
  if ((await query.update(update)) > 0) return 'done';
  return (await knex('notes').where({ id: noteId, environment_id: environmentId }).first('id'))
    ? 'stale'
    : 'not_found';
}

/** Deletes a note (and its messages) and records `deleteNote`, if the version matches. */
export async function deleteNote(
  knex: Knex,
  author: NoteAuthor,
  noteId: number,
  expectedVersion?: number,
): Promise<ConditionalResult> {
  return knex.transaction(async (trx) => {
    const query = trx('notes').where({ id: noteId, environment_id: author.environmentId });
    if (expectedVersion !== undefined) query.andWhere({ version: expectedVersion });
    const [note] = (await query
      .delete()
      .returning(['id', 'team_id', 'collection_name', 'record_id', 'version'])) as LockedNote[];
    if (!note) {
      const exists = await trx('notes')
        .where({ id: noteId, environment_id: author.environmentId })
        .first('id');
      return exists ? 'stale' : 'not_found';
    }
    await insertActivityLogs(trx, author.projectId, [
      {
        environmentId: author.environmentId,
        userId: author.userId,
        teamId: note.team_id,
        type: 'write',
        action: 'deleteNote',
        collectionName: note.collection_name,
        recordIds: [note.record_id],
        label: noteLabel('deleted a note', note.collection_name, note.record_id),
      },
    ]);
    return 'done';
  });
}
