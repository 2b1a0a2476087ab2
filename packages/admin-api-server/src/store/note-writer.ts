import type { Knex } from 'knex';
import { insertActivityLogs } from './activity-log-writer';
import { insertAdminLogs } from './admin-log-writer';
import { publishConsoleEvent } from './console-events';
import { recordMentions } from './inbox';

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

/**
 * A `note-created`, `note-updated` or `note-deleted` Console event, in the transaction of the
 * write: streams give it to the members who may see the notes of its collection (admins only for
 * a note naming none), as `GET …/notes` would list it.
 */
async function publishNoteEvent(
  trx: Knex.Transaction,
  author: NoteAuthor,
  event: 'note-created' | 'note-updated' | 'note-deleted',
  note: { id: number; collection_name: string | null; record_id: string },
): Promise<void> {
  await publishConsoleEvent(trx, {
    projectId: author.projectId,
    environmentId: author.environmentId,
    collectionName: note.collection_name,
    adminsOnly: note.collection_name === null,
    event,
    data: {
      noteId: note.id,
      collectionName: note.collection_name,
      recordId: note.record_id,
      userId: author.userId,
    },
  });
}

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
    /** Members mentioned in `content` (resolved by the caller). */
    mentions?: readonly number[];
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
    const [message] = await trx('note_messages')
      .insert({
        note_id: note.id,
        user_id: author.userId,
        content: input.content,
        created_at: note.created_at,
      })
      .returning(['id']);
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
    const written = {
      id: note.id as number,
      collection_name: input.collectionName,
      record_id: input.recordId,
    };
    await publishNoteEvent(trx, author, 'note-created', written);
    await recordMentions(
      trx,
      {
        ...author,
        noteId: written.id,
        messageId: message.id as number,
        collectionName: input.collectionName,
        recordId: input.recordId,
        authorId: author.userId,
      },
      input.mentions ?? [],
    );
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
  mentions: readonly number[] = [],
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
    await publishNoteEvent(trx, author, 'note-updated', note);
    await recordMentions(
      trx,
      {
        ...author,
        noteId,
        messageId: message.id as number,
        collectionName: note.collection_name,
        recordId: note.record_id,
        authorId: author.userId,
      },
      mentions,
    );
    return { messageId: message.id as number, version: note.version };
  });
}

/** Outcome of a conditional write. */
export type ConditionalResult = 'done' | 'not_found' | 'stale';

/**
 * A project admin changing or deleting someone else's note: the change is recorded in the
 * project's admin logs (resource `note`), in the transaction of the change.
 */
export interface NoteModeration {
  projectId: number;
  environmentName: string;
  /** The admin. */
  userId: number;
}

/** The note columns a moderation log shows. */
interface ModeratedNote {
  id: number;
  title: string;
  collection_name: string | null;
  record_id: string;
  archived_at: Date | null;
  version: number;
  author_email: string;
}

/** The admin-log value of a note: which note, where, whose, and its title and archive state. */
function noteLogValue(note: ModeratedNote, environmentName: string): Record<string, unknown> {
  return {
    id: note.id,
    title: note.title,
    archived: note.archived_at !== null,
    collectionName: note.collection_name,
    recordId: note.record_id,
    environmentName,
    authorEmail: note.author_email,
  };
}

/** The admin log of a moderation: an `update` (with the note after it) or a `remove`. */
async function logModeration(
  trx: Knex.Transaction,
  moderation: NoteModeration,
  before: ModeratedNote,
  after?: ModeratedNote,
): Promise<void> {
  await insertAdminLogs(trx, moderation.projectId, [
    {
      type: after ? 'update' : 'remove',
      resource: 'note',
      initiator: 'administrator',
      userId: moderation.userId,
      previousValue: noteLogValue(before, moderation.environmentName),
      newValue: after ? noteLogValue(after, moderation.environmentName) : null,
    },
  ]);
}

/** Locks a note of the environment for a conditional write: the row, or why there is none. */
async function lockNote(
  trx: Knex.Transaction,
  environmentId: number,
  noteId: number,
  expectedVersion: number | undefined,
): Promise<ModeratedNote | 'not_found' | 'stale'> {
  const note: ModeratedNote | undefined = await trx('notes as n')
    .join('users as u', 'u.id', 'n.user_id')
    .where({ 'n.id': noteId, 'n.environment_id': environmentId })
    .forUpdate('n')
    .first(
      'n.id',
      'n.title',
      'n.collection_name',
      'n.record_id',
      'n.archived_at',
      'n.version',
      'u.email as author_email',
    );
  if (!note) return 'not_found';
  if (expectedVersion !== undefined && note.version !== expectedVersion) return 'stale';
  return note;
}

/**
 * Updates the title and/or archive state, only if the version still matches `expectedVersion`
 * (when given); a moderation is logged with the note before and after.
 */
export async function updateNote(
  knex: Knex,
  environmentId: number,
  noteId: number,
  changes: { title?: string; archived?: boolean },
  expectedVersion?: number,
  moderation?: NoteModeration,
  actor?: NoteAuthor,
): Promise<ConditionalResult> {
  return knex.transaction(async (trx) => {
    const before = await lockNote(trx, environmentId, noteId, expectedVersion);
    if (typeof before === 'string') return before;
    const update: Record<string, unknown> = {
      version: trx.raw('version + 1'),
      updated_at: trx.raw(BUMPED_UPDATED_AT),
    };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.archived === true) update.archived_at = trx.raw('coalesce(archived_at, now())');
    if (changes.archived === false) update.archived_at = null;
    const [after] = (await trx('notes')
      .where({ id: noteId })
      .update(update)
      .returning(['title', 'archived_at'])) as Pick<ModeratedNote, 'title' | 'archived_at'>[];
    if (moderation) await logModeration(trx, moderation, before, { ...before, ...after! });
    if (actor) await publishNoteEvent(trx, actor, 'note-updated', before);
    return 'done';
  });
}

/**
 * Deletes a note (and its messages) and records `deleteNote` (and the admin log of a
 * moderation), if the version matches.
 */
export async function deleteNote(
  knex: Knex,
  author: NoteAuthor,
  noteId: number,
  expectedVersion?: number,
  moderation?: NoteModeration,
): Promise<ConditionalResult> {
  return knex.transaction(async (trx) => {
    const before = await lockNote(trx, author.environmentId, noteId, expectedVersion);
    if (typeof before === 'string') return before;
    const [note] = (await trx('notes')
      .where({ id: noteId })
      .delete()
      .returning(['id', 'team_id', 'collection_name', 'record_id', 'version'])) as LockedNote[];
    await insertActivityLogs(trx, author.projectId, [
      {
        environmentId: author.environmentId,
        userId: author.userId,
        teamId: note!.team_id,
        type: 'write',
        action: 'deleteNote',
        collectionName: note!.collection_name,
        recordIds: [note!.record_id],
        label: noteLabel('deleted a note', note!.collection_name, note!.record_id),
      },
    ]);
    if (moderation) await logModeration(trx, moderation, before);
    await publishNoteEvent(trx, author, 'note-deleted', before);
    return 'done';
  });
}
