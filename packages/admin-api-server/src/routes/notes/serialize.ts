import type { NoteItem, NoteMessageItem } from '@canopy/platform-protocol';
import type { NoteMessageRow, NoteRow } from '../../store/note-queries';
import { userItem } from '../serialize-user';

/** A note message as the contract shapes it. */
export function noteMessageItem(row: NoteMessageRow): NoteMessageItem {
  return {
    object: 'note-message',
    content: row.content,
    createdAt: row.created_at.toISOString(),
    user: userItem(row.user_id, row.user_email, row.user_username),
  };
}

/** A note with its messages as the contract shapes it. */
export function noteItem(
  row: NoteRow,
  messages: readonly NoteMessageRow[],
  environmentName: string,
): NoteItem {
  return {
    object: 'note',
    id: row.id,
    title: row.title,
    recordId: row.record_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.archived_at === null ? {} : { archivedAt: row.archived_at.toISOString() }),
    ...(row.collection_name === null
      ? {}
      : { collection: { object: 'collection', name: row.collection_name } }),
    messages: messages.map(noteMessageItem),
    user: userItem(row.user_id, row.user_email, row.user_username),
    environment: { object: 'environment', name: environmentName },
    team: { object: 'team', name: row.team_name },
  };
}

/** The strong ETag of a note version. */
export function noteEtag(id: number, version: number): string {
  return `"note-${id}-v${version}"`;
}
