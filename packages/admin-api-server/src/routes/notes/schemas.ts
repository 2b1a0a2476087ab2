import { queryParser, bodyParser, type JsonSchema } from '../../validation/ajv';
import {
  CURSOR_PROPERTY,
  LIMIT_PROPERTY,
  RECORD_FILTER_PROPERTIES,
  USER_FILTER_PROPERTIES,
  NO_QUERY,
  dateFilterProperties,
} from '../../validation/query-schemas';

/** Query schema of the note list. */
export const LIST_NOTES_QUERY: JsonSchema = {
  type: 'object',
  properties: {
    limit: LIMIT_PROPERTY,
    ...USER_FILTER_PROPERTIES,
    ...RECORD_FILTER_PROPERTIES,
    ...dateFilterProperties('createdAt'),
    ...dateFilterProperties('updatedAt'),
    ...dateFilterProperties('archivedAt'),
    cursor: CURSOR_PROPERTY,
  },
  additionalProperties: false,
};

const CONTENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100_000,
  description: 'HTML; sanitized (scripts, event handlers and unsafe URLs are removed)',
};

/** Body of `POST …/notes`. */
export const CREATE_NOTE_BODY: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 500 },
    recordId: { type: 'string', minLength: 1, maxLength: 500 },
    collectionName: { type: 'string', minLength: 1, maxLength: 500 },
    teamName: {
      type: 'string',
      minLength: 1,
      description: "One of the author's teams; defaults to their first team",
    },
    message: CONTENT,
  },
  required: ['title', 'recordId', 'collectionName', 'message'],
  additionalProperties: false,
};

/** Body of `POST …/notes/{noteId}/messages`. */
export const ADD_MESSAGE_BODY: JsonSchema = {
  type: 'object',
  properties: { content: CONTENT },
  required: ['content'],
  additionalProperties: false,
};

/** Body of `PATCH …/notes/{noteId}`. */
export const UPDATE_NOTE_BODY: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 500 },
    archived: { type: 'boolean', description: 'true archives the note, false unarchives it' },
  },
  minProperties: 1,
  additionalProperties: false,
};

/** Parsed bodies. */
export interface CreateNoteBody {
  title: string;
  recordId: string;
  collectionName: string;
  teamName?: string;
  message: string;
}

export const parseListNotesQuery = queryParser<
  Record<string, unknown> & {
    limit?: number;
    cursor?: string;
    userEmail?: string;
    userId?: number;
    teamName?: string;
    collectionName?: string;
    recordId?: string;
  }
>(LIST_NOTES_QUERY);
export const parseCreateNoteBody = bodyParser<CreateNoteBody>(CREATE_NOTE_BODY);
export const parseAddMessageBody = bodyParser<{ content: string }>(ADD_MESSAGE_BODY);
export const parseUpdateNoteBody = bodyParser<{ title?: string; archived?: boolean }>(
  UPDATE_NOTE_BODY,
);

/** Single-note routes accept no query parameter; a stray one is a 400 naming it. */
export const parseNoQuery = queryParser<Record<string, never>>(NO_QUERY);
