import { ID_SCHEMA } from '../validation/input-rules';
import {
  EXPORT_ACTIVITY_LOGS_QUERY,
  INTEGRITY_QUERY,
  LIST_ACTIVITY_LOGS_QUERY,
} from '../routes/activity-logs';
import { LIST_ADMIN_LOGS_QUERY } from '../routes/admin-logs';
import { CREATE_TOKEN_BODY } from '../routes/application-tokens';
import {
  ADD_MESSAGE_BODY,
  CREATE_NOTE_BODY,
  LIST_NOTES_QUERY,
  UPDATE_NOTE_BODY,
} from '../routes/notes';
import type { JsonSchema } from '../validation/ajv';
import { COMPONENT_SCHEMAS } from './component-schemas';
import { accountPaths } from './account-paths';
import { approvalPaths } from './approval-paths';
import { managementPaths } from './management-paths';
import { DASHBOARD, DASHBOARD_BODY } from '../routes/dashboards';
import { mePaths } from './me-paths';
import { CONSOLE_LAYOUT_SCHEMAS, consoleLayoutPaths } from './console-layout-paths';
import { LIVE_SCHEMAS, livePaths } from './live-paths';

type Operation = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    schema: { type: 'string' },
    description: 'Requests a full window admits (sustained + burst)',
  },
  'X-RateLimit-Remaining': {
    schema: { type: 'string' },
    description: 'Requests left for this token',
  },
  'X-RateLimit-Reset': {
    schema: { type: 'string' },
    description: 'Seconds until the window restarts',
  },
  RateLimit: { schema: { type: 'string' }, description: 'IETF RateLimit field' },
  'RateLimit-Policy': { schema: { type: 'string' }, description: 'IETF RateLimit-Policy field' },
  'Request-Id': {
    schema: { type: 'string' },
    description: 'Id of this request in the server logs',
  },
};

const PROJECT = {
  name: 'projectName',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
  description: 'The **case sensitive** project name',
};
const ENVIRONMENT = {
  name: 'environmentName',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
  description: 'The **case sensitive** environment name',
};
const NOTE_ID = {
  name: 'noteId',
  in: 'path',
  required: true,
  schema: ID_SCHEMA,
};
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'Makes a retried create safe: the same key returns the first response',
};
const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'ETag of the note; 412 when it changed since',
};

function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = schema.properties as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: false,
      schema: rest,
      ...(description ? { description } : {}),
    };
  });
}

function echoSchema(query: JsonSchema, path: string[], required: string[]): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(query.properties as Record<string, JsonSchema>)
      .filter(([name]) => name !== 'cursor' && name !== 'format')
      .map(([name, property]) => {
        const { default: _default, description: _description, ...rest } = property;
        return [name, rest];
      }),
  );
  for (const name of path) properties[name] = { type: 'string', minLength: 1 };
  return { type: 'object', properties, required, additionalProperties: false };
}

function envelope(item: string, echo: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      hasMore: { type: 'boolean' },
      data: { type: 'array', items: ref(item) },
      parameters: echo,
      nextCursor: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` to get the next page (null on the last page)',
      },
    },
    required: ['hasMore', 'data', 'parameters', 'nextCursor'],
    additionalProperties: false,
  };
}

function errors(extra: Record<string, string> = {}): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '400': { description: 'Invalid parameter or body', content: json(ref('Error')) },
    '401': {
      description: 'Missing, invalid, expired or revoked token',
      content: json(ref('AuthError')),
    },
    '403': {
      description: 'The token may not do this (scope, project, role, SSO)',
      content: json(ref('AuthError')),
      headers: RATE_LIMIT_HEADERS,
    },
    '404': {
      description:
        'Unknown project (or one the token is not bound to: the same answer), environment or resource',
      content: json(ref('Error')),
      headers: RATE_LIMIT_HEADERS,
    },
    '429': {
      description: 'Too many requests',
      headers: {
        'Retry-After': {
          required: true,
          schema: { type: 'string' },
          description: 'Seconds to wait',
        },
        ...RATE_LIMIT_HEADERS,
      },
      content: json(ref('Error')),
    },
    '500': { description: 'Unexpected error', content: json(ref('Error')) },
    '503': {
      description:
        'The store is busy (the embedded store serves one request at a time): retry in a moment',
      headers: { 'Retry-After': { schema: { type: 'string' }, description: 'Seconds to wait' } },
      content: json(ref('Error')),
    },
  };
  for (const [status, description] of Object.entries(extra)) {
    responses[status] = { description, content: json(ref('Error')) };
  }
  return responses;
}

function ok(
  description: string,
  schema: JsonSchema,
  status = '200',
  headers: Record<string, unknown> = RATE_LIMIT_HEADERS,
) {
  return { [status]: { description, headers, content: json(schema) } };
}

const APP = [{ bearerAuth: [] }];
/**
 * Application token, or (the console) a member's own token: for notes, a member who may see the
 * note's record (role rights and team scope; 403 saying why otherwise); any member for one
 * record's activity logs (`collectionName` and `recordId` given), admins for the other logs.
 */
const APP_OR_SESSION = [{ bearerAuth: [] }, { consoleAuth: [] }, { sessionAuth: [] }];
/** The user's own credentials: the console's access token or a platform session token. */
const USER = [{ consoleAuth: [] }, { sessionAuth: [] }];
/** A session token, or the console's access token (the console's settings). */
const SESSION = [{ sessionAuth: [] }, { consoleAuth: ['openid'] }];
const ETAG_HEADERS = { ...RATE_LIMIT_HEADERS, ETag: { schema: { type: 'string' } } };

/**
 * The OpenAPI 3.1 document of this server, served at `/v1/openapi.json`. Built from the same
 * JSON Schemas the routes validate with, so the two cannot drift apart.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const envPath = '/v1/project/{projectName}/environment/{environmentName}';
  const notesItemPath = `${envPath}/notes/{noteId}`;
  const activityEcho = echoSchema(
    LIST_ACTIVITY_LOGS_QUERY,
    ['projectName', 'environmentName'],
    ['environmentName', 'projectName', 'limit'],
  );
  const notesEcho = echoSchema(
    LIST_NOTES_QUERY,
    ['projectName', 'environmentName'],
    ['environmentName', 'projectName', 'limit'],
  );
  const adminEcho = echoSchema(LIST_ADMIN_LOGS_QUERY, ['projectName'], ['projectName']);
  const paths: Record<string, Record<string, Operation>> = {
    [`${envPath}/activity-logs`]: {
      get: {
        operationId: 'listActivityLogs',
        summary: 'List activity logs, newest first',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, ...queryParameters(LIST_ACTIVITY_LOGS_QUERY)],
        responses: {
          ...ok('A page of activity logs', envelope('ActivityLog', activityEcho)),
          ...errors(),
        },
      },
    },
    [`${envPath}/activity-logs/export`]: {
      get: {
        operationId: 'exportActivityLogs',
        summary:
          'Stream every activity log of a filtered range (NDJSON or CSV); one rate-limit unit',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, ...queryParameters(EXPORT_ACTIVITY_LOGS_QUERY)],
        responses: {
          '200': {
            description: 'The logs, newest first',
            headers: RATE_LIMIT_HEADERS,
            content: {
              'application/x-ndjson': { schema: ref('ActivityLog') },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errors(),
        },
      },
    },
    [`${envPath}/activity-logs/integrity`]: {
      get: {
        operationId: 'verifyActivityLogIntegrity',
        summary: "Verify the project's activity-log hash chain over a creation-time range",
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, ...queryParameters(INTEGRITY_QUERY)],
        responses: { ...ok('The verification report', ref('IntegrityReport')), ...errors() },
      },
    },
    [`${envPath}/activity-logs/checkpoint`]: {
      get: {
        operationId: 'getActivityLogCheckpoint',
        summary:
          "A signed checkpoint of the project's activity-log chain head, and the public keys that verify it (keep both elsewhere to verify the chain later)",
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT],
        responses: { ...ok('The checkpoint', ref('ActivityLogCheckpoint')), ...errors() },
      },
    },
    '/v1/project/{projectName}/admin-logs': {
      get: {
        operationId: 'listAdminLogs',
        summary: 'List admin logs, newest first',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ...queryParameters(LIST_ADMIN_LOGS_QUERY)],
        responses: { ...ok('A page of admin logs', envelope('AdminLog', adminEcho)), ...errors() },
      },
    },
    [`${envPath}/notes`]: {
      get: {
        operationId: 'listNotes',
        summary: 'List notes, highest id first',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, ...queryParameters(LIST_NOTES_QUERY)],
        responses: { ...ok('A page of notes', envelope('Note', notesEcho)), ...errors() },
      },
      post: {
        operationId: 'createNote',
        summary: 'Create a note with its first message (scope notes:write)',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, IDEMPOTENCY_KEY],
        requestBody: { required: true, content: json(CREATE_NOTE_BODY) },
        responses: {
          ...ok('The new note', ref('Note'), '201', {
            ...ETAG_HEADERS,
            Location: { schema: { type: 'string' } },
          }),
          ...errors({
            '409': 'The same Idempotency-Key is being processed',
            '422': 'Idempotency-Key reused with another request',
          }),
        },
      },
    },
    [notesItemPath]: {
      get: {
        operationId: 'getNote',
        summary: 'Read one note with its ETag',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, NOTE_ID],
        responses: { ...ok('The note', ref('Note'), '200', ETAG_HEADERS), ...errors() },
      },
      patch: {
        operationId: 'updateNote',
        summary:
          "Change the title, archive or unarchive (the note's author; a project admin's moderation is in the admin logs)",
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, NOTE_ID, IF_MATCH],
        requestBody: { required: true, content: json(UPDATE_NOTE_BODY) },
        responses: {
          ...ok('The updated note', ref('Note'), '200', ETAG_HEADERS),
          ...errors({ '412': 'The note changed since the If-Match ETag' }),
        },
      },
      delete: {
        operationId: 'deleteNote',
        summary:
          "Delete a note and its messages (the note's author; a project admin's moderation is in the admin logs)",
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, NOTE_ID, IF_MATCH],
        responses: {
          '204': { description: 'Deleted', headers: RATE_LIMIT_HEADERS },
          ...errors({ '412': 'The note changed since the If-Match ETag' }),
        },
      },
    },
    [`${notesItemPath}/messages`]: {
      post: {
        operationId: 'addNoteMessage',
        summary: 'Add a message to a note',
        security: APP_OR_SESSION,
        parameters: [PROJECT, ENVIRONMENT, NOTE_ID, IDEMPOTENCY_KEY],
        requestBody: { required: true, content: json(ADD_MESSAGE_BODY) },
        responses: {
          ...ok("The message; ETag is the note's new one", ref('NoteMessage'), '201', ETAG_HEADERS),
          ...errors({
            '409': 'The same Idempotency-Key is being processed',
            '422': 'Idempotency-Key reused with another request',
          }),
        },
      },
    },
    [`${envPath}/dashboard`]: {
      get: {
        operationId: 'getDashboard',
        summary: "The environment's dashboard: its charts and their layout (any member)",
        security: USER,
        parameters: [PROJECT, ENVIRONMENT],
        responses: { ...ok('The dashboard', DASHBOARD), ...errors() },
      },
      put: {
        operationId: 'saveDashboard',
        summary:
          "Replace the environment's dashboard (admins); its collection charts join every rendering's `stats`, agents refresh within a second",
        security: USER,
        parameters: [PROJECT, ENVIRONMENT],
        requestBody: { required: true, content: json(DASHBOARD_BODY) },
        responses: { ...ok('The saved dashboard', DASHBOARD), ...errors() },
      },
    },
    [`${envPath}/collections`]: {
      get: {
        operationId: 'listCollections',
        summary: "Collections the environment's agent declared in its last schema upload",
        security: APP,
        parameters: [PROJECT, ENVIRONMENT],
        responses: {
          ...ok('The collections and their action names', {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    object: { type: 'string', enum: ['collection'] },
                    name: { type: 'string' },
                    actions: { type: 'array', items: { type: 'string' } },
                  },
                  required: ['object', 'name', 'actions'],
                  additionalProperties: false,
                },
              },
            },
            required: ['data'],
            additionalProperties: false,
          }),
          ...errors(),
        },
      },
    },
    '/v1/project/{projectName}/application-tokens': {
      get: {
        operationId: 'listApplicationTokens',
        summary: 'List live tokens of a project (Admin role)',
        security: SESSION,
        parameters: [PROJECT],
        responses: {
          ...ok('The tokens', {
            type: 'object',
            properties: { data: { type: 'array', items: ref('ApplicationToken') } },
            required: ['data'],
            additionalProperties: false,
          }),
          ...errors(),
        },
      },
      post: {
        operationId: 'createApplicationToken',
        summary:
          'Create a token (Admin role; SSO session on SSO projects); the token is shown once',
        security: SESSION,
        parameters: [PROJECT],
        requestBody: { required: true, content: json(CREATE_TOKEN_BODY) },
        responses: {
          ...ok(
            'The token, shown this once, and its description',
            ref('ApplicationTokenCreated'),
            '201',
          ),
          ...errors(),
        },
      },
    },
    '/v1/project/{projectName}/application-tokens/{tokenId}': {
      delete: {
        operationId: 'revokeApplicationToken',
        summary: 'Revoke a token; effective on its very next request',
        security: SESSION,
        parameters: [PROJECT, { name: 'tokenId', in: 'path', required: true, schema: ID_SCHEMA }],
        responses: { '204': { description: 'Revoked', headers: RATE_LIMIT_HEADERS }, ...errors() },
      },
    },
    '/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        security: [],
        responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Liveness and database reachability',
        security: [],
        responses: {
          '200': {
            description: 'Healthy',
            content: json({
              type: 'object',
              properties: { status: { type: 'string', enum: ['ok'] } },
              required: ['status'],
              additionalProperties: false,
            }),
          },
          '503': { description: 'The database does not answer', content: json(ref('Error')) },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Canopy public administration API',
      version: '1.38.0',
      description:
        'Compatible with the 1.38.0 public API contract: same paths, parameters and item shapes. ' +
        'Additions: `nextCursor`/`cursor` pagination, note writes, export, integrity, token management, ' +
        'and the management API (projects, environments, members, roles, teams, IP whitelist), ' +
        'the account API (one-time invitation and reset links, own password, session revocation), ' +
        "the signed-in user's own view for the console (`/v1/me`), " +
        'and action approvals (`/api/action-approvals`: file, queue, approve with a signed request, reject).',
    },
    paths: {
      ...paths,
      ...managementPaths(),
      ...accountPaths(),
      ...mePaths(),
      ...approvalPaths(),
      ...consoleLayoutPaths({
        errors,
        ok,
        security: USER,
        project: PROJECT,
        environment: ENVIRONMENT,
      }),
      ...livePaths({ errors, ok, security: USER, project: PROJECT, environment: ENVIRONMENT }),
    },
    components: {
      schemas: { ...COMPONENT_SCHEMAS, ...CONSOLE_LAYOUT_SCHEMAS, ...LIVE_SCHEMAS },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Application token',
        },
        sessionAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'User session token',
        },
        userPlatformToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'User platform token: an MCP platform access token or an OIDC access token issued to an agent of the environment',
        },
        consoleAuth: {
          type: 'oauth2',
          description:
            "The console's access token: OIDC client `canopy-console`, authorization code with PKCE (S256)",
          flows: {
            authorizationCode: {
              authorizationUrl: '/oidc/auth',
              tokenUrl: '/oidc/token',
              scopes: { openid: 'Who you are' },
            },
          },
        },
      },
    },
  };
}
