import type { NoteMessageRow, NoteRow } from '../../store/note-queries';
import { userItem } from '../serialize-user';

/** A note message as the contract shapes it. */
export function noteMessageItem(row: NoteMessageRow): Record<string, unknown> {
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
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    object: 'note',
    id: row.id,
    title: row.title,
    recordId: row.record_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.archived_at !== null) item.archivedAt = row.archived_at.toISOString();
  if (row.collection_name !== null)
    item.collection = { object: 'collection', name: row.collection_name };
  item.messages = messages.map(noteMessageItem);
  item.user = userItem(row.user_id, row.user_email, row.user_username);
  item.environment = { object: 'environment', name: environmentName };
  item.team = { object: 'team', name: row.team_name };
  return item;
}

/** The strong ETag of a note version. */
export function noteEtag(id: number, version: number): string {
  return `"note-${id}-v${version}"`;
}
