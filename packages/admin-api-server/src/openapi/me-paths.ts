import * as management from '../routes/management/schemas';
import type { JsonSchema } from '../validation/ajv';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const SECURITY = [{ consoleAuth: [] }, { sessionAuth: [] }];
const UNAUTHORIZED = {
  description: 'Missing, expired or revoked access token or session token',
  content: json(ref('AuthError')),
};
const NAME_ID = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id', 'name'],
};
const ROLE = { oneOf: [NAME_ID, { type: 'null' }] };
const ENVIRONMENT = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    type: { type: 'string', enum: ['development', 'production'] },
    isDevelopment: { type: 'boolean', description: 'Development environments grant every right' },
    apiEndpoint: {
      type: ['string', 'null'],
      description: "The agent's base URL (the console calls `<apiEndpoint>/forest/…`)",
    },
  },
  required: ['name', 'type', 'isDevelopment', 'apiEndpoint'],
};
const TEAMS = {
  type: 'array',
  items: NAME_ID,
  description: "The user's teams: a team id is the rendering id an agent's login takes",
};

const WORKSPACES = {
  type: 'object',
  additionalProperties: false,
  properties: {
    user: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'integer' },
        email: { type: 'string' },
        firstName: { type: 'string' },
        lastName: { type: 'string' },
      },
      required: ['id', 'email', 'firstName', 'lastName'],
    },
    projects: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          permissionLevel: { type: 'string' },
          role: ROLE,
          teams: TEAMS,
          environments: { type: 'array', items: ENVIRONMENT },
        },
        required: ['name', 'permissionLevel', 'role', 'teams', 'environments'],
      },
    },
  },
  required: ['user', 'projects'],
};

const DETAIL = {
  type: 'object',
  additionalProperties: false,
  properties: {
    project: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' } },
      required: ['name'],
    },
    environment: ENVIRONMENT,
    user: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'integer' },
        email: { type: 'string' },
        permissionLevel: { type: 'string' },
      },
      required: ['id', 'email', 'permissionLevel'],
    },
    teams: TEAMS,
    role: ROLE,
    rights: {
      oneOf: [management.ROLE_RIGHTS, { type: 'null' }],
      description:
        "The role's rights in the management API's shape (an absent right is granted, except " +
        '`approvalRequired`); `null` for a member without a role: nothing is granted',
    },
    rightsVersion: {
      type: 'string',
      description: 'Changes when anything of this answer changes; also the ETag',
    },
    schema: {
      description: 'The schema document the agent last uploaded (`null` before its first start)',
    },
  },
  required: [
    'project',
    'environment',
    'user',
    'teams',
    'role',
    'rights',
    'rightsVersion',
    'schema',
  ],
};

/**
 * The signed-in user's own view of the platform, for the console: projects, environments, teams,
 * role rights and uploaded schemas. Only projects the user is a member of exist here.
 */
export function mePaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/me/agent-sessions/revoke': {
      post: {
        operationId: 'revokeMyAgentSessions',
        summary:
          'Sign out of the agents: every agent of your projects refuses the agent session tokens you got until now (the console calls it when you sign out)',
        tags: ['me'],
        security: SECURITY,
        responses: {
          '204': { description: 'Signed out: the agents refuse those tokens within seconds' },
          '401': UNAUTHORIZED,
          '429': { description: 'Rate limited', content: json(ref('Error')) },
        },
      },
    },
    '/v1/me/workspaces': {
      get: {
        operationId: 'listMyWorkspaces',
        summary:
          'The projects you are a member of: their environments (agent API endpoint, development flag), your teams and role',
        tags: ['me'],
        security: SECURITY,
        responses: {
          '200': { description: 'Your projects', content: json(WORKSPACES) },
          '401': UNAUTHORIZED,
          '429': { description: 'Rate limited', content: json(ref('Error')) },
        },
      },
    },
    '/v1/me/projects/{projectName}/environments/{environmentName}': {
      get: {
        operationId: 'getMyEnvironment',
        summary:
          'One environment as you work in it: your teams, your role and its rights, the uploaded schema. Poll it with If-None-Match: an unchanged answer is a 304 without body',
        tags: ['me'],
        security: SECURITY,
        parameters: [
          {
            name: 'projectName',
            in: 'path',
            required: true,
            schema: { type: 'string', minLength: 1 },
            description: 'The **case sensitive** project name',
          },
          {
            name: 'environmentName',
            in: 'path',
            required: true,
            schema: { type: 'string', minLength: 1 },
            description: 'The **case sensitive** environment name',
          },
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: 'The ETag of the answer you hold (`"<rightsVersion>"`)',
          },
        ],
        responses: {
          '200': {
            description: 'The environment',
            headers: { ETag: { schema: { type: 'string' }, description: '`"<rightsVersion>"`' } },
            content: json(DETAIL),
          },
          '304': { description: 'Unchanged since the ETag sent in If-None-Match' },
          '401': UNAUTHORIZED,
          '404': {
            description:
              'No such environment, or no project of that name you are a member of (the same answer as an unknown project)',
            content: json(ref('Error')),
          },
          '429': { description: 'Rate limited', content: json(ref('Error')) },
        },
      },
    },
  };
}
