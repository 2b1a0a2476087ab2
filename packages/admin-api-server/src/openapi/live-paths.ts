import type { JsonSchema } from '../validation/ajv';
import { ID_SCHEMA } from '../validation/input-rules';
import type { PathHelpers } from './console-layout-paths';

const USER_REF: JsonSchema = {
  type: ['object', 'null'],
  required: ['id', 'email', 'name'],
  properties: { id: { type: 'integer' }, email: { type: 'string' }, name: { type: 'string' } },
};

/** The Console's live stream and inbox schemas, as components of the document. */
export const LIVE_SCHEMAS: Record<string, JsonSchema> = {
  LiveStreamTicket: {
    type: 'object',
    required: ['object', 'ticket', 'expiresAt', 'url'],
    properties: {
      object: { const: 'live-stream-ticket' },
      ticket: { type: 'string', description: 'Single use, valid for 60 seconds' },
      expiresAt: { type: 'string', format: 'date-time' },
      url: { type: 'string', description: 'The stream path with the ticket, for `EventSource`' },
    },
  },
  InboxItem: {
    type: 'object',
    required: ['object', 'id', 'kind', 'note', 'approval', 'by', 'createdAt', 'readAt'],
    properties: {
      object: { const: 'inbox-item' },
      id: { type: 'integer' },
      kind: {
        enum: ['mention', 'approval'],
        description:
          '`mention`: a note message mentioning you (`note` set); `approval`: an action approval request your role may decide (`approval` set; read once decided)',
      },
      approval: {
        type: ['object', 'null'],
        required: ['id', 'collectionName', 'actionName', 'recordIds', 'status'],
        properties: {
          id: { type: 'integer' },
          collectionName: { type: 'string' },
          actionName: { type: 'string' },
          recordIds: { type: 'array', items: { type: 'string' } },
          status: { enum: ['pending', 'approved', 'rejected'] },
        },
      },
      note: {
        type: ['object', 'null'],
        required: ['id', 'title', 'collectionName', 'recordId'],
        properties: {
          id: { type: 'integer' },
          title: { type: 'string' },
          collectionName: { type: ['string', 'null'] },
          recordId: { type: 'string' },
        },
      },
      by: USER_REF,
      createdAt: { type: 'string', format: 'date-time' },
      readAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const q = (name: string, schema: JsonSchema, description: string, required = false) => ({
  name,
  in: 'query',
  required,
  schema,
  description,
});
const LIMIT = (max: number, fallback: number) =>
  q(
    'limit',
    { type: 'integer', minimum: 1, maximum: max, default: fallback },
    `How many to return, 1 to ${max} inclusive (\`limit=1\` is accepted; default ${fallback})`,
  );
const UNREAD: JsonSchema = {
  type: 'object',
  required: ['unreadCount'],
  properties: { unreadCount: { type: 'integer', minimum: 0 } },
};

/**
 * The Console's live stream (server-sent events), inbox and @-mention suggestions (issue 33):
 * the signed-in member's own, with the Console's access token or a session token.
 */
export function livePaths(h: PathHelpers): Record<string, Record<string, unknown>> {
  const env = '/v1/project/{projectName}/environment/{environmentName}';
  const base = { tags: ['live'], security: h.security };
  const params = [h.project, h.environment];
  return {
    [`${env}/live/tickets`]: {
      post: {
        ...base,
        operationId: 'createLiveStreamTicket',
        summary:
          'A single-use ticket (60 s) opening one live stream of this environment as you: an `EventSource` cannot send an Authorization header. Application tokens are refused',
        parameters: params,
        responses: { ...h.ok('The ticket', ref('LiveStreamTicket'), '201'), ...h.errors() },
      },
    },
    [`${env}/live`]: {
      get: {
        ...base,
        operationId: 'openLiveStream',
        summary:
          'The live stream (`text/event-stream`) of this environment for you: `ready`, `rights-changed`, `note-created`, `note-updated`, `note-deleted`, `mention`, `record-changed`, `presence`, `approval-requested`, `approval-decided`, `resync` events, each with an `id`, and a heartbeat comment every 15 s. Open it with `?ticket=` (no Authorization header) or with your token in the header; resume with `Last-Event-ID` (or `lastEventId`)',
        parameters: [
          ...params,
          q('ticket', { type: 'string' }, 'A ticket from `POST …/live/tickets` (spent on use)'),
          q(
            'lastEventId',
            { type: 'string', pattern: '^[0-9]{1,18}$' },
            'Resume after this event id (as the `Last-Event-ID` header)',
          ),
        ],
        responses: {
          '200': {
            description: 'The stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...h.errors(),
        },
      },
    },
    [`${env}/presence`]: {
      put: {
        ...base,
        operationId: 'heartbeatPresence',
        summary:
          'You have this record open: others on the same record get a `presence` event. Send it again within 30 s (a heartbeat) or it expires; one record per member and environment',
        parameters: params,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['collection', 'recordId'],
                properties: {
                  collection: { type: 'string', minLength: 1, maxLength: 255 },
                  recordId: { type: 'string', minLength: 1, maxLength: 1024 },
                  streamId: {
                    type: 'string',
                    maxLength: 64,
                    description:
                      'The `streamId` of the `ready` event of the stream of the page that has the record open: the presence is cleared when that stream closes',
                  },
                },
              },
            },
          },
        },
        responses: { '204': { description: 'Recorded' }, ...h.errors() },
      },
      delete: {
        ...base,
        operationId: 'leavePresence',
        summary: 'You closed the record you had open (a `presence` event tells the others)',
        parameters: params,
        responses: { '204': { description: 'Done (or you had none open)' }, ...h.errors() },
      },
    },
    [`${env}/inbox`]: {
      get: {
        ...base,
        operationId: 'listInbox',
        summary:
          'Your inbox in this environment (the notes mentioning you, the approval requests you may decide), newest first, with the unread count',
        parameters: [
          ...params,
          LIMIT(100, 20),
          q('cursor', { type: 'string' }, 'The `nextCursor` of the previous page'),
          q('unread', { type: 'string', enum: ['true', 'false'] }, '`true`: unread items only'),
        ],
        responses: {
          ...h.ok('A page of the inbox', {
            type: 'object',
            required: ['data', 'hasMore', 'nextCursor', 'unreadCount'],
            properties: {
              data: { type: 'array', items: ref('InboxItem') },
              hasMore: { type: 'boolean' },
              nextCursor: { type: ['string', 'null'] },
              unreadCount: { type: 'integer', minimum: 0 },
            },
          }),
          ...h.errors(),
        },
      },
    },
    [`${env}/inbox/unread-count`]: {
      get: {
        ...base,
        operationId: 'countUnreadInbox',
        summary: 'How many items of your inbox in this environment are unread',
        parameters: params,
        responses: { ...h.ok('The count', UNREAD), ...h.errors() },
      },
    },
    [`${env}/inbox/read-all`]: {
      post: {
        ...base,
        operationId: 'markInboxRead',
        summary: 'Mark every item of your inbox in this environment read',
        parameters: params,
        responses: {
          ...h.ok('How many were unread', {
            type: 'object',
            required: ['marked'],
            properties: { marked: { type: 'integer', minimum: 0 } },
          }),
          ...h.errors(),
        },
      },
    },
    [`${env}/inbox/{itemId}/read`]: {
      post: {
        ...base,
        operationId: 'markInboxItemRead',
        summary: 'Mark one item of your inbox read (404 for an item that is not yours)',
        parameters: [
          ...params,
          {
            name: 'itemId',
            in: 'path',
            required: true,
            schema: ID_SCHEMA,
            description: 'The inbox item',
          },
        ],
        responses: { '204': { description: 'Marked read' }, ...h.errors() },
      },
    },
    '/v1/project/{projectName}/member-suggestions': {
      get: {
        ...base,
        operationId: 'suggestMembers',
        summary:
          'Members of the project whose name (or a word of it) or email starts with `prefix`, case-insensitive, by name: for @-mentions',
        parameters: [
          h.project,
          q(
            'prefix',
            { type: 'string', maxLength: 100 },
            'The start of a name or email (may be empty)',
            true,
          ),
          LIMIT(100, 10),
        ],
        responses: {
          ...h.ok('The members', {
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['object', 'id', 'email', 'name'],
                  properties: {
                    object: { const: 'member-suggestion' },
                    id: { type: 'integer' },
                    email: { type: 'string' },
                    name: { type: 'string' },
                  },
                },
              },
            },
          }),
          ...h.errors(),
        },
      },
    },
  };
}
