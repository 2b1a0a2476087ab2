/**
 * The notes of the public API (spec/admin-api.md): admin-api-server writes them, the Console and
 * API clients read them. A page wraps every list of the public API.
 */
import type { PublicApiUser } from './public-api-logs';

/** One message of a note's thread (its HTML as the platform sanitized it). */
export interface NoteMessageItem {
  object: 'note-message';
  content: string;
  createdAt: string;
  user: PublicApiUser;
}

/** A note on a record, with its messages. */
export interface NoteItem {
  object: 'note';
  id: number;
  title: string;
  recordId: string;
  createdAt: string;
  updatedAt: string;
  archivedAt?: string;
  collection?: { object: 'collection'; name: string };
  messages: NoteMessageItem[];
  user: PublicApiUser;
  environment: { object: 'environment'; name: string };
  team: { object: 'team'; name: string };
}

/** A page of a public API list: `nextCursor` asks for the next one while `hasMore`. */
export interface PublicApiPage<Item> {
  hasMore: boolean;
  data: Item[];
  /** The query as the server read it (names and values echoed). */
  parameters: Record<string, unknown>;
  nextCursor: string | null;
}
