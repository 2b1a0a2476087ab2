import { ID_SCHEMA } from '../validation/input-rules';
import * as body from '../routes/management/schemas';
import type { JsonSchema } from '../validation/ajv';

type Operation = Record<string, unknown>;

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const SESSION = [{ sessionAuth: [] }];
/** Project routes also take the console's access token (its settings screens). */
const SESSION_OR_CONSOLE = [{ sessionAuth: [] }, { consoleAuth: ['openid'] }];

const pathParameter = (name: string, description: string, integer = false) => ({
  name,
  in: 'path',
  required: true,
  schema: integer ? ID_SCHEMA : { type: 'string', minLength: 1 },
  description,
});
const PROJECT = pathParameter('projectName', 'The **case sensitive** project name');

const ERRORS = {
  '400': { description: 'Invalid body, or a name of nothing known', content: json(ref('Error')) },
  '401': {
    description: 'Missing or invalid session or console token',
    content: json(ref('AuthError')),
  },
  '403': { description: 'Not an admin of the project', content: json(ref('AuthError')) },
  '404': {
    description:
      'Unknown project (or one the caller is no member of: the same answer), environment, member, role or team',
    content: json(ref('Error')),
  },
  '409': {
    description: 'The name is taken, or the resource is in use',
    content: json(ref('Error')),
  },
};

const ENVIRONMENT_ITEM: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['development', 'production'] },
    apiEndpoint: { type: ['string', 'null'] },
    collections: {
      type: 'array',
      items: { type: 'string' },
      description: 'Collections its agent declared in its last schema upload',
    },
  },
  required: ['id', 'name', 'type', 'apiEndpoint', 'collections'],
};
const WITH_SECRET = (required: boolean): JsonSchema => ({
  type: 'object',
  properties: {
    environment: ENVIRONMENT_ITEM,
    secret: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'The env secret (CANOPY_ENV_SECRET), shown this once',
    },
  },
  required: required ? ['environment', 'secret'] : ['environment'],
});
const MEMBER_ITEM: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'The user id' },
    email: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    permissionLevel: { type: 'string' },
    roleName: { type: ['string', 'null'] },
    teamNames: { type: 'array', items: { type: 'string' } },
    tags: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['id', 'email', 'permissionLevel', 'roleName', 'teamNames', 'tags'],
};
const MEMBER_WITH_INVITATION: JsonSchema = {
  ...MEMBER_ITEM,
  properties: {
    ...(MEMBER_ITEM.properties as object),
    invitation: {
      type: 'object',
      description: 'Only when the account was created by this call; shown once',
      properties: {
        url: { type: 'string', description: 'The page where the invited person sets a password' },
        token: { type: 'string', description: 'The one-time token of the link' },
        expiresAt: { type: 'string', format: 'date-time' },
      },
      required: ['url', 'token', 'expiresAt'],
    },
  },
};
const ROLE_ITEM: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, rights: body.ROLE_RIGHTS },
  required: ['id', 'name', 'rights'],
};
const TEAM_ITEM: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'Also the rendering id agents use' },
    name: { type: 'string' },
    scopes: body.TEAM_SCOPES,
  },
  required: ['id', 'name', 'scopes'],
};

const ok = (description: string, schema: JsonSchema, status = '200') => ({
  [status]: { description, content: json(schema) },
});
const noContent = (description: string) => ({ '204': { description } });

function operation(
  operationId: string,
  summary: string,
  parameters: unknown[],
  responses: Record<string, unknown>,
  requestBody?: JsonSchema,
): Operation {
  return {
    operationId,
    summary,
    tags: ['management'],
    security: operationId === 'createProject' ? SESSION : SESSION_OR_CONSOLE,
    parameters,
    ...(requestBody ? { requestBody: { required: true, content: json(requestBody) } } : {}),
    responses: { ...responses, ...ERRORS },
  };
}

/**
 * The management API's paths: a user session token (or, on project routes, the console's access
 * token), and for project routes an `admin` member.
 * Every change writes its admin log in the same transaction.
 */
export function managementPaths(): Record<string, Record<string, Operation>> {
  const project = '/v1/project/{projectName}';
  const environment = pathParameter('environmentName', 'The environment name');
  const user = pathParameter('userId', 'The member user id', true);
  const role = pathParameter('roleName', 'The role name');
  const team = pathParameter('teamName', 'The team name');
  return {
    '/v1/projects': {
      post: operation(
        'createProject',
        'Create a project; the caller becomes its admin with the Admin role',
        [],
        ok('The project', { type: 'object' }, '201'),
        body.CREATE_PROJECT_BODY,
      ),
    },
    [project]: {
      patch: operation(
        'updateProject',
        'Turn the SSO requirement on or off; set the activity-log retention (months kept, null: forever)',
        [PROJECT],
        ok('The project', { type: 'object' }),
        body.UPDATE_PROJECT_BODY,
      ),
      get: operation(
        'getProject',
        "The project with environments, members, roles, teams and IP whitelist. Each member has `lockedUntil`: when the account's sign-in, locked after too many failed attempts, unlocks (else null)",
        [PROJECT],
        ok('The project', {
          type: 'object',
          properties: {
            members: {
              type: 'array',
              items: {
                ...MEMBER_ITEM,
                properties: {
                  ...(MEMBER_ITEM.properties as object),
                  lockedUntil: { type: ['string', 'null'], format: 'date-time' },
                },
              },
            },
          },
        }),
      ),
    },
    [`${project}/environments`]: {
      post: operation(
        'createEnvironment',
        'Create an environment and its env secret (shown once)',
        [PROJECT],
        ok('The environment and its secret', WITH_SECRET(true), '201'),
        body.CREATE_ENVIRONMENT_BODY,
      ),
    },
    [`${project}/environments/{environmentName}`]: {
      patch: operation(
        'updateEnvironment',
        'Rename, change type or agent URL, or rotate the env secret',
        [PROJECT, environment],
        ok('The environment (and the new secret when rotated)', WITH_SECRET(false)),
        body.UPDATE_ENVIRONMENT_BODY,
      ),
      delete: operation(
        'deleteEnvironment',
        'Remove an environment without activity logs',
        [PROJECT, environment],
        noContent('Removed'),
      ),
    },
    [`${project}/members`]: {
      post: operation(
        'addMember',
        'Add a user with permission level, role, teams and tags. A new email creates an account without a password and returns an invitation link (shown once) for that person to set it; an existing account is added as it is, and no project admin can set its password',
        [PROJECT],
        ok(
          'The member (with the invitation when the account is new)',
          MEMBER_WITH_INVITATION,
          '201',
        ),
        body.ADD_MEMBER_BODY,
      ),
    },
    [`${project}/members/{userId}`]: {
      patch: operation(
        'updateMember',
        'Change permission level, role, teams or tags',
        [PROJECT, user],
        ok('The member', MEMBER_ITEM),
        body.UPDATE_MEMBER_BODY,
      ),
      delete: operation(
        'removeMember',
        'Remove a user from the project',
        [PROJECT, user],
        noContent('Removed'),
      ),
    },
    [`${project}/members/{userId}/lock`]: {
      delete: operation(
        'unlockMember',
        "Unlock a member's account, locked after too many failed sign-ins (the lock is the account's: this lifts it for every project). Recorded in the admin logs (an update of the member, `lockedUntil` before and after) when the account was locked; 204 either way. A limit on the client address is not lifted",
        [PROJECT, user],
        noContent('Unlocked (or was not locked)'),
      ),
    },
    [`${project}/roles`]: {
      post: operation(
        'createRole',
        'Create a role with rights per collection and action',
        [PROJECT],
        ok('The role', ROLE_ITEM, '201'),
        body.ROLE_BODY(true),
      ),
    },
    [`${project}/roles/{roleName}`]: {
      patch: operation(
        'updateRole',
        'Rename a role or replace its rights (agents refresh within a second)',
        [PROJECT, role],
        ok('The role', ROLE_ITEM),
        body.ROLE_BODY(false),
      ),
      delete: operation('deleteRole', 'Remove a role', [PROJECT, role], noContent('Removed')),
    },
    [`${project}/teams`]: {
      post: operation(
        'createTeam',
        "Create a team with row-level scopes per collection (each checked against the environments' uploaded schemas: 400 invalid_scope)",
        [PROJECT],
        ok('The team', TEAM_ITEM, '201'),
        body.TEAM_BODY(true),
      ),
    },
    [`${project}/teams/{teamName}`]: {
      patch: operation(
        'updateTeam',
        "Rename a team or replace its scopes (checked against the environments' uploaded schemas: 400 invalid_scope; agents refresh within a second)",
        [PROJECT, team],
        ok('The team', TEAM_ITEM),
        body.TEAM_BODY(false),
      ),
      delete: operation(
        'deleteTeam',
        'Remove a team no log or note refers to',
        [PROJECT, team],
        noContent('Removed'),
      ),
    },
    [`${project}/teams/{teamName}/charts`]: {
      get: operation(
        'getTeamCharts',
        "The charts the team's members with the `user` permission level may run",
        [PROJECT, team],
        ok('The charts', body.TEAM_CHARTS_BODY),
      ),
      put: operation(
        'setTeamCharts',
        "Replace the charts the team's `user`-level members may run (agents refresh within a second)",
        [PROJECT, team],
        ok('The charts', body.TEAM_CHARTS_BODY),
        body.TEAM_CHARTS_BODY,
      ),
    },
    [`${project}/ip-whitelist`]: {
      put: operation(
        'setIpWhitelist',
        'Replace the IP whitelist (null turns it off); agents read it at start',
        [PROJECT],
        ok('The rules', body.IP_WHITELIST_BODY),
        body.IP_WHITELIST_BODY,
      ),
    },
  };
}
