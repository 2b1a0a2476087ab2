import { SCOPES } from '../auth/scopes';
import { ACTIVITY_ACTIONS } from '../store/activity-log-writer';
import type { JsonSchema } from '../validation/ajv';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const named = (kind: string): JsonSchema => ({
  type: 'object',
  properties: { object: { type: 'string', enum: [kind] }, name: { type: 'string', minLength: 1 } },
  required: ['object', 'name'],
  additionalProperties: false,
});
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

/**
 * Item schemas, identical in shape to the published 1.38.0 contract (additionalProperties false
 * where it says so), plus the schemas of what this server adds.
 */
export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  User: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['user'] },
      email: { type: 'string', format: 'email' },
      id: { type: 'integer', minimum: 0 },
      username: { type: 'string', minLength: 1 },
    },
    required: ['object', 'email', 'id', 'username'],
    additionalProperties: false,
  },
  EnvironmentRef: named('environment'),
  TeamRef: named('team'),
  CollectionRef: named('collection'),
  ActivityLog: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['activityLog'] },
      id: { type: 'string' },
      type: { type: 'string', enum: ['read', 'write'] },
      action: { type: 'string', enum: [...ACTIVITY_ACTIONS] },
      label: { type: 'string' },
      recordIds: { type: 'array', items: { type: 'string' } },
      createdAt: dateTime,
      user: ref('User'),
      environment: ref('EnvironmentRef'),
      collection: ref('CollectionRef'),
      team: ref('TeamRef'),
      status: { type: 'string', enum: ['pending', 'completed', 'failed'] },
      errorMessage: { type: 'string', maxLength: 1000 },
      inbox: {
        type: 'object',
        properties: { object: { type: 'string', enum: ['inbox'] }, name: { type: 'string' } },
        required: ['object', 'name'],
      },
      workflow: {
        type: 'object',
        properties: {
          object: { type: 'string', enum: ['workflow'] },
          name: { type: 'string' },
          runId: { type: 'string' },
          stepName: { type: 'string' },
          optionName: { type: 'string' },
        },
        required: ['object', 'name', 'runId'],
      },
    },
    required: ['object', 'id', 'type', 'action', 'createdAt', 'user', 'environment', 'team'],
    additionalProperties: false,
  },
  AdminLog: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['adminLog'] },
      id: { type: 'string' },
      type: { type: 'string', enum: ['add', 'remove', 'update', 'initial'] },
      resource: {
        type: 'string',
        enum: ['user-project', 'role', 'team', 'environment', 'activity-logs', 'note', 'console'],
      },
      initiator: { type: 'string', enum: ['administrator', 'identityProvider', 'forestAdmin'] },
      createdAt: dateTime,
      user: ref('User'),
      newValue: ref('AdminLogResource'),
      previousValue: ref('AdminLogResource'),
    },
    required: ['object', 'id', 'type', 'resource', 'initiator', 'createdAt'],
    additionalProperties: false,
  },
  AdminLogResource: {
    anyOf: [
      ref('UserProjectValue'),
      ref('RoleValue'),
      ref('TeamValue'),
      ref('EnvironmentValue'),
      ref('ActivityLogPurgeValue'),
      ref('NoteModerationValue'),
      ref('ConsoleSettingValue'),
    ],
  },
  ConsoleSettingValue: {
    type: 'object',
    description:
      "A change to what a team's Console shows (resource `console`): a published layout version, a team segment, a team's default view, or an admin deleting someone else's view",
    properties: {
      environmentName: { type: 'string' },
      teamName: { type: 'string' },
      setting: { type: 'string', enum: ['layout', 'segment', 'default-view', 'view'] },
      name: { type: ['string', 'null'], description: '`collection.name` of a segment or view' },
      version: { type: ['integer', 'null'], description: 'The layout version published' },
    },
    required: ['environmentName', 'teamName', 'setting', 'name', 'version'],
    additionalProperties: false,
  },
  NoteModerationValue: {
    type: 'object',
    description:
      'A note an admin renamed, archived or deleted while someone else wrote it (resource `note`), before and after',
    properties: {
      id: { type: 'integer', minimum: 1 },
      title: { type: 'string' },
      archived: { type: 'boolean' },
      collectionName: { type: ['string', 'null'] },
      recordId: { type: 'string' },
      environmentName: { type: 'string' },
      authorEmail: { type: 'string' },
    },
    required: [
      'id',
      'title',
      'archived',
      'collectionName',
      'recordId',
      'environmentName',
      'authorEmail',
    ],
    additionalProperties: false,
  },
  ActivityLogPurgeValue: {
    type: 'object',
    description:
      'The logs a retention purge removed (resource `activity-logs`, initiator `forestAdmin`: the system)',
    properties: {
      retentionMonths: { type: 'integer', minimum: 1 },
      cutoff: { ...dateTime, description: 'Logs created before this instant were purged' },
      rowsRemoved: { type: 'integer', minimum: 0 },
      lastPurgedSequence: {
        type: 'integer',
        minimum: 0,
        description: 'The chain link the project chain now resumes after (its retention anchor)',
      },
    },
    required: ['retentionMonths', 'cutoff', 'rowsRemoved', 'lastPurgedSequence'],
    additionalProperties: false,
  },
  UserProjectValue: {
    type: 'object',
    properties: {
      user: ref('User'),
      permissionLevel: {
        type: 'string',
        enum: ['admin', 'editor', 'user', 'developer', 'manager'],
      },
      tags: {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: { type: 'string' }, value: { type: 'string' } },
          required: ['key', 'value'],
          additionalProperties: false,
        },
      },
      role: named('role'),
      teams: { type: 'array', items: named('team') },
      lockedUntil: {
        type: ['string', 'null'],
        format: 'date-time',
        description:
          'Ours, beyond the contract: only in the log of an admin unlocking the account (`DELETE …/members/{userId}/lock`), when its sign-in lock was to end before, `null` after',
      },
    },
    required: ['user'],
    additionalProperties: false,
  },
  RoleValue: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 } },
    required: ['name'],
    additionalProperties: false,
  },
  TeamValue: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 } },
    required: ['name'],
    additionalProperties: false,
  },
  EnvironmentValue: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      codeCustomizationVersion: { type: 'number' },
    },
    required: ['name', 'codeCustomizationVersion'],
    additionalProperties: false,
  },
  NoteMessage: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['note-message'] },
      content: { type: 'string' },
      createdAt: dateTime,
      user: ref('User'),
    },
    required: ['object', 'content', 'createdAt', 'user'],
  },
  Note: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['note'] },
      id: { type: 'integer' },
      title: { type: 'string' },
      recordId: { type: 'string', minLength: 1 },
      createdAt: dateTime,
      updatedAt: dateTime,
      archivedAt: dateTime,
      collection: {
        type: 'object',
        properties: {
          object: { type: 'string', enum: ['collection'] },
          name: { type: 'string', minLength: 1 },
        },
        required: ['object', 'name'],
      },
      messages: { type: 'array', items: ref('NoteMessage') },
      user: ref('User'),
      environment: ref('EnvironmentRef'),
      team: ref('TeamRef'),
    },
    required: [
      'object',
      'id',
      'title',
      'recordId',
      'createdAt',
      'messages',
      'updatedAt',
      'user',
      'environment',
      'team',
    ],
    additionalProperties: false,
  },
  ApplicationToken: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['applicationToken'] },
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
      createdAt: dateTime,
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      expiresAt: dateTime,
    },
    required: ['object', 'id', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'expiresAt'],
    additionalProperties: false,
  },
  ApplicationTokenCreated: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['applicationToken'] },
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
      createdAt: dateTime,
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      expiresAt: dateTime,
      token: { type: 'string', description: 'The application token (a JWT); shown only here' },
    },
    required: ['object', 'id', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'expiresAt', 'token'],
    additionalProperties: false,
  },
  IntegrityReport: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['activityLogIntegrity'] },
      valid: { type: 'boolean' },
      checked: { type: 'integer', minimum: 0 },
      fromSequence: { type: ['integer', 'null'] },
      toSequence: { type: ['integer', 'null'] },
      firstBrokenLink: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            properties: {
              id: { type: ['string', 'null'] },
              sequence: { type: 'integer' },
              createdAt: { type: ['string', 'null'], format: 'date-time' },
              reason: {
                type: 'string',
                enum: [
                  'content_modified',
                  'previous_hash_mismatch',
                  'missing_link',
                  'unknown_key',
                  'unkeyed_link',
                  'chain_head_mismatch',
                  'anchor_invalid',
                ],
              },
            },
            required: ['id', 'sequence', 'createdAt', 'reason'],
            additionalProperties: false,
          },
        ],
      },
      parameters: { type: 'object' },
    },
    required: [
      'object',
      'valid',
      'checked',
      'fromSequence',
      'toSequence',
      'firstBrokenLink',
      'parameters',
    ],
    additionalProperties: false,
  },
  ActivityLogCheckpoint: {
    type: 'object',
    properties: {
      object: { type: 'string', enum: ['activityLogCheckpoint'] },
      checkpoint: {
        type: 'object',
        properties: {
          format: { type: 'string', enum: ['canopy-activity-log-checkpoint/1'] },
          projectId: { type: 'integer' },
          projectName: { type: 'string' },
          sequence: { type: 'integer', minimum: 0, description: 'The last link of the chain' },
          hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          keyId: { type: 'string' },
          signedAt: { type: 'string', format: 'date-time' },
          signature: {
            type: 'string',
            description:
              'Ed25519 (base64url) over the JSON array of the other fields, in this order',
          },
        },
        required: [
          'format',
          'projectId',
          'projectName',
          'sequence',
          'hash',
          'keyId',
          'signedAt',
          'signature',
        ],
        additionalProperties: false,
      },
      publicKeys: {
        type: 'array',
        description: 'Ed25519 public keys (JWK, kid = keyId) that verify checkpoints',
        items: { type: 'object', required: ['kid', 'kty', 'crv', 'x'] },
      },
    },
    required: ['object', 'checkpoint', 'publicKeys'],
    additionalProperties: false,
  },
  Error: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      message: { type: 'string' },
      reference: {
        type: 'string',
        description:
          'Internal errors (500) only: a short reference to quote to an administrator; the server logged the error under it.',
      },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  },
  AuthError: {
    type: 'object',
    properties: {
      error: { type: 'string', enum: ['unauthorized', 'forbidden'] },
      message: { type: 'string' },
    },
    required: ['error', 'message'],
    additionalProperties: false,
  },
};
