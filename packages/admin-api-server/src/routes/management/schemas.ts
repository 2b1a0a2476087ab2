import { MAX_RETENTION_MONTHS } from '../../store/activity-log-retention';
import { PERMISSION_LEVELS } from '../../store/model';
import {
  ACTION_CONDITIONS,
  ACTION_RIGHTS,
  CHART_KEYS,
  COLLECTION_RIGHTS,
} from '@canopy/platform-protocol';
import type { JsonSchema } from '../../validation/ajv';

const NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };

const booleans = (names: readonly string[]): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])),
  additionalProperties: false,
});

/**
 * A condition tree (platform protocol 5.4), nested at most `depth` groups deep: a leaf
 * `{field, operator, value?, source?}` or a group `{aggregator, conditions}`.
 */
export function conditionTree(depth = 4): JsonSchema {
  const leaf: JsonSchema = {
    type: 'object',
    properties: {
      field: { type: 'string', minLength: 1, maxLength: 500 },
      operator: { type: 'string', minLength: 1, maxLength: 100 },
      value: {},
      source: { type: 'string', enum: ['data', 'input'] },
    },
    required: ['field', 'operator'],
    additionalProperties: false,
  };
  if (depth === 0) return leaf;
  const group: JsonSchema = {
    type: 'object',
    properties: {
      aggregator: { type: 'string', enum: ['and', 'or', 'And', 'Or'] },
      conditions: { type: 'array', maxItems: 200, items: conditionTree(depth - 1) },
    },
    required: ['aggregator', 'conditions'],
    additionalProperties: false,
  };
  return { oneOf: [leaf, group] };
}

/** One action's rights of a role: the switches, and the conditions that narrow them. */
const ACTION_RIGHT: JsonSchema = {
  type: 'object',
  properties: {
    ...(booleans(ACTION_RIGHTS).properties as Record<string, JsonSchema>),
    ...Object.fromEntries(
      Object.entries(ACTION_CONDITIONS).map(([name, right]) => [
        name,
        {
          anyOf: [conditionTree(), { type: 'null' }],
          description: `Condition tree the selected records must match for \`${right}\` (null: none)`,
        },
      ]),
    ),
  },
  additionalProperties: false,
};

/** A role's rights: per collection, and per collection and action display name. */
export const ROLE_RIGHTS: JsonSchema = {
  type: 'object',
  properties: {
    collections: { type: 'object', additionalProperties: booleans(COLLECTION_RIGHTS) },
    actions: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: ACTION_RIGHT },
    },
  },
  additionalProperties: false,
};

/** A condition tree (platform protocol 5.4), per collection. */
export const TEAM_SCOPES: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'object' },
  description:
    'Condition tree per collection name, e.g. {"orders": {"field": "region", "operator": "equal", "value": "EU"}}',
};

/** One chart a team's `user`-level members may run, in the shape the front end posts it. */
export const CHART: JsonSchema = {
  type: 'object',
  properties: Object.fromEntries(
    CHART_KEYS.map((key) => [
      key,
      key === 'type'
        ? {
            type: 'string',
            enum: ['Pie', 'Value', 'Leaderboard', 'Line', 'Objective', 'Percentage', 'Smart'],
          }
        : {
            anyOf: [
              { type: 'string', maxLength: 10000 },
              key === 'filter' ? { type: 'object' } : { type: 'number' },
              { type: 'null' },
            ],
          },
    ]),
  ),
  required: ['type'],
  additionalProperties: false,
};

/** `PUT /v1/project/{p}/teams/{t}/charts` and its answer. */
export const TEAM_CHARTS_BODY: JsonSchema = {
  type: 'object',
  properties: {
    charts: {
      type: 'array',
      maxItems: 1000,
      items: CHART,
      description:
        'The charts the members of the team with the `user` permission level may run; admins, developers and editors may run any chart. Agents compare a chart request with these on the keys listed, ignoring null values and value types.',
    },
  },
  required: ['charts'],
  additionalProperties: false,
};

const ENVIRONMENT_TYPE: JsonSchema = { type: 'string', enum: ['development', 'production'] };
const API_ENDPOINT: JsonSchema = { type: ['string', 'null'], format: 'uri' };
const TAGS: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };

/** `POST /v1/projects`. */
export const CREATE_PROJECT_BODY: JsonSchema = {
  type: 'object',
  properties: { name: NAME },
  required: ['name'],
  additionalProperties: false,
};

/** `PATCH /v1/project/{p}`. */
export const UPDATE_PROJECT_BODY: JsonSchema = {
  type: 'object',
  properties: {
    ssoEnabled: {
      type: 'boolean',
      description: 'Require SSO sessions for token management on this project',
    },
    activityLogRetentionMonths: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_RETENTION_MONTHS,
      description:
        'Months of activity logs the project keeps (older ones are purged daily, recorded in the admin log); null keeps them forever (the default)',
    },
  },
  minProperties: 1,
  additionalProperties: false,
};

/** `POST /v1/project/{p}/environments`. */
export const CREATE_ENVIRONMENT_BODY: JsonSchema = {
  type: 'object',
  properties: { name: NAME, type: ENVIRONMENT_TYPE, apiEndpoint: API_ENDPOINT },
  required: ['name'],
  additionalProperties: false,
};

/** `PATCH /v1/project/{p}/environments/{e}`. */
export const UPDATE_ENVIRONMENT_BODY: JsonSchema = {
  type: 'object',
  properties: {
    name: NAME,
    type: ENVIRONMENT_TYPE,
    apiEndpoint: API_ENDPOINT,
    rotateSecret: { type: 'boolean' },
  },
  additionalProperties: false,
};

const MEMBER_SETTINGS = {
  permissionLevel: { type: 'string', enum: [...PERMISSION_LEVELS] },
  roleName: { type: ['string', 'null'], minLength: 1 },
  teamNames: { type: 'array', items: NAME, uniqueItems: true },
  tags: TAGS,
};

/** `POST /v1/project/{p}/members`. */
export const ADD_MEMBER_BODY: JsonSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    firstName: { type: 'string', maxLength: 200 },
    lastName: { type: 'string', maxLength: 200 },
    ...MEMBER_SETTINGS,
  },
  required: ['email', 'permissionLevel'],
  additionalProperties: false,
};

/** `PATCH /v1/project/{p}/members/{userId}`. */
export const UPDATE_MEMBER_BODY: JsonSchema = {
  type: 'object',
  properties: MEMBER_SETTINGS,
  additionalProperties: false,
};

/** `POST` and `PATCH` of roles. */
export const ROLE_BODY = (create: boolean): JsonSchema => ({
  type: 'object',
  properties: { name: NAME, rights: ROLE_RIGHTS },
  ...(create ? { required: ['name'] } : {}),
  additionalProperties: false,
});

/** `POST` and `PATCH` of teams. */
export const TEAM_BODY = (create: boolean): JsonSchema => ({
  type: 'object',
  properties: { name: NAME, scopes: TEAM_SCOPES },
  ...(create ? { required: ['name'] } : {}),
  additionalProperties: false,
});

/** `PUT /v1/project/{p}/ip-whitelist`. */
export const IP_WHITELIST_BODY: JsonSchema = {
  type: 'object',
  properties: {
    rules: {
      type: ['array', 'null'],
      items: {
        oneOf: [
          {
            type: 'object',
            properties: { type: { const: 0 }, ip: { type: 'string', minLength: 1 } },
            required: ['type', 'ip'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: {
              type: { const: 1 },
              ipMinimum: { type: 'string', minLength: 1 },
              ipMaximum: { type: 'string', minLength: 1 },
            },
            required: ['type', 'ipMinimum', 'ipMaximum'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { type: { const: 2 }, range: { type: 'string', minLength: 1 } },
            required: ['type', 'range'],
            additionalProperties: false,
          },
        ],
      },
    },
  },
  required: ['rules'],
  additionalProperties: false,
};
