// The tenancy matrix: every route of the OpenAPI document (so a new route cannot be forgotten),
// called by every kind of member of project Beta with Alpha's names and ids in its path. None may
// read or change anything of Alpha or of its users; each must answer exactly as for an unknown
// project, and Alpha's stored state must not move.
import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  createUser,
  PERMISSION_LEVELS,
  setUserPassword,
  signSessionToken,
  type AdminApiServer,
  type PermissionLevel,
  type ProjectRow,
} from '../src';
import { buildOpenApiDocument } from '../src/openapi/document';
import { startTestServer, TEST_KEYS, tokenFor } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;

interface Operation {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: string;
  security: 'application' | 'session' | 'none';
}

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
};
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => {
    const scheme = Object.keys(operation.security?.[0] ?? {})[0];
    return {
      method: method as Operation['method'],
      path,
      security:
        scheme === 'bearerAuth' ? 'application' : scheme === 'sessionAuth' ? 'session' : 'none',
    } as Operation;
  }),
);

/** Routes outside any project: what each may touch is asserted by its own test below. */
const UNSCOPED = [
  'GET /v1/openapi.json',
  'GET /health',
  'POST /v1/projects',
  'POST /v1/account/password',
  'PUT /v1/account/password',
  'POST /v1/account/sessions/revoke',
  // The signed-in user's own workspaces (test/me.test.ts).
  'GET /v1/me/workspaces',
  // The signed-in user's own sign-out of the agents (test/agent-session-revocation.test.ts).
  'POST /v1/me/agent-sessions/revoke',
  // Action approvals name their environment by header or query; test/action-approvals.test.ts
  // asserts that another project's approval answers the same 404 as an unknown one.
  'GET /api/action-approvals',
  'POST /api/action-approvals',
  'GET /api/action-approvals/{approvalId}',
  'POST /api/action-approvals/{approvalId}/comments',
  'POST /api/action-approvals/{approvalId}/approve',
  'POST /api/action-approvals/{approvalId}/reject',
  'POST /api/action-approvals/{approvalId}/outcome',
];

interface Tenant {
  project: ProjectRow;
  members: Record<PermissionLevel, number>;
  sessions: Record<PermissionLevel, string>;
  /** Tokens of the admin: one per scope. */
  tokens: string[];
}

async function tenant(name: string): Promise<Tenant> {
  const knex = server.knex;
  const project = await createProject(knex, { name, teams: ['Support'] });
  await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  await knex('roles').insert({ project_id: project.id, name: 'Clerk' });
  const members = {} as Record<PermissionLevel, number>;
  const sessions = {} as Record<PermissionLevel, string>;
  for (const level of PERMISSION_LEVELS) {
    const user = await createUser(knex, { email: `${level}@${name.toLowerCase()}.example.com` });
    await setUserPassword(knex, user.id, `${level}-password-of-${name}`);
    await addProjectMember(knex, {
      projectId: project.id,
      userId: user.id,
      permissionLevel: level,
    });
    members[level] = user.id;
    sessions[level] = signSessionToken(TEST_KEYS, {
      userId: user.id,
      sso: false,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
  }
  const tokens = [];
  for (const scope of [
    'all',
    'activity_logs:read',
    'admin_logs:read',
    'notes:read',
    'notes:write',
  ] as const) {
    tokens.push(await tokenFor(server, project, members.admin, [scope]));
  }
  return { project, members, sessions, tokens };
}

let alpha: Tenant;
let beta: Tenant;
let alphaIds: Record<string, string>;

/** Everything stored about Alpha and its users, to compare before and after the matrix. */
async function alphaState(): Promise<unknown> {
  const knex = server.knex;
  const id = alpha.project.id;
  const users = Object.values(alpha.members);
  return {
    project: await knex('projects').where({ id }).first(),
    environments: await knex('environments').where({ project_id: id }).orderBy('id'),
    memberships: await knex('project_memberships').where({ project_id: id }).orderBy('id'),
    roles: await knex('roles').where({ project_id: id }).orderBy('id'),
    teams: await knex('teams').where({ project_id: id }).orderBy('id'),
    tokens: await knex('application_tokens')
      .where({ project_id: id })
      .orderBy('id')
      .select('id', 'name', 'scopes', 'expires_at', 'revoked_at'),
    notes: await knex('notes').where({ project_id: id }).orderBy('id'),
    activityLogs: await knex('activity_logs').where({ project_id: id }).count({ n: '*' }).first(),
    adminLogs: await knex('admin_logs').where({ project_id: id }).count({ n: '*' }).first(),
    users: await knex('users')
      .whereIn('id', users)
      .orderBy('id')
      .select('id', 'email', 'password_hash', 'sessions_valid_after'),
    accountTokens: await knex('account_tokens').whereIn('user_id', users).count({ n: '*' }).first(),
    layouts: await knex('layout_versions').where({ project_id: id }).orderBy('id'),
    views: await knex('saved_views').where({ project_id: id }).orderBy('id'),
    segments: await knex('team_segments').where({ project_id: id }).orderBy('id'),
  };
}

beforeAll(async () => {
  server = await startTestServer(db());
  alpha = await tenant('Alpha');
  beta = await tenant('Beta');
  const note = await request(server.app)
    .post('/v1/project/Alpha/environment/Production/notes')
    .set('authorization', `Bearer ${alpha.tokens[0]}`)
    .send({ title: 'Alpha only', recordId: '1', collectionName: 'orders', message: '<p>x</p>' });
  expect(note.status).toBe(201);
  const token = await server
    .knex('application_tokens')
    .where({ project_id: alpha.project.id })
    .first('id');
  // Alpha's Console: a published layout, a view shared with Support, a team segment.
  const place = {
    project_id: alpha.project.id,
    environment_id: (
      await server.knex('environments').where({ project_id: alpha.project.id }).first('id')
    ).id,
  };
  const support = await server
    .knex('teams')
    .where({ project_id: alpha.project.id, name: 'Support' })
    .first('id');
  await server.knex('layout_versions').insert({
    ...place,
    team_id: support.id,
    version: 1,
    layout: '{}',
    origin: '{"kind":"publish"}',
  });
  const [view] = await server
    .knex('saved_views')
    .insert({
      ...place,
      collection: 'orders',
      name: 'Alpha view',
      owner_id: alpha.members.admin,
      team_id: support.id,
    })
    .returning('id');
  const [segment] = await server
    .knex('team_segments')
    .insert({
      ...place,
      team_id: support.id,
      collection: 'orders',
      name: 'Alpha segment',
      filter: '{"field":"id","operator":"present"}',
    })
    .returning('id');
  alphaIds = {
    projectName: 'Alpha',
    environmentName: 'Production',
    noteId: String(note.body.id),
    tokenId: String(token.id),
    userId: String(alpha.members.admin),
    roleName: 'Clerk',
    teamName: 'Support',
    collectionName: 'orders',
    version: '1',
    viewId: String(view.id),
    segmentId: String(segment.id),
    itemId: '1',
  };
}, 60_000);

afterAll(() => server.close());

const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`The matrix has no value for {${name}} of ${path}`);
    return encodeURIComponent(value);
  });

const ANY_BODY = { name: 'Taken over', title: 'x', content: '<p>x</p>', password: 'x'.repeat(20) };

function call(operation: Operation, path: string, bearer: string, body: object = ANY_BODY) {
  const req = request(server.app)[operation.method](path).set('authorization', `Bearer ${bearer}`);
  return operation.method === 'get' || operation.method === 'delete' ? req : req.send(body);
}

it('classifies every route of the document: project-scoped, or unscoped with its own test', () => {
  const unscoped = operations
    .filter((operation) => !operation.path.includes('{projectName}'))
    .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
  expect(unscoped.sort()).toEqual([...UNSCOPED].sort());
  expect(operations.filter((operation) => operation.path.includes('{projectName}')).length).toBe(
    operations.length - UNSCOPED.length,
  );
});

const scoped = operations.filter((operation) => operation.path.includes('{projectName}'));

describe.each(
  scoped.map(
    (operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const,
  ),
)('%s', (_name, operation) => {
  it('answers every member of another project exactly as an unknown project', async () => {
    const before = await alphaState();
    const credentials =
      operation.security === 'application'
        ? beta.tokens.map((token, index) => [`Beta admin token #${index}`, token] as const)
        : PERMISSION_LEVELS.map((level) => [`Beta ${level}`, beta.sessions[level]] as const);
    for (const [who, bearer] of credentials) {
      const foreign = await call(operation, fill(operation.path, alphaIds), bearer);
      const unknown = await call(
        operation,
        fill(operation.path, { ...alphaIds, projectName: 'Gamma' }),
        bearer,
      );
      const seen = { who, status: foreign.status, code: foreign.body.code ?? foreign.body.error };
      expect(seen).toEqual({ who, status: 404, code: 'project_not_found' });
      expect(unknown.status).toBe(foreign.status);
      expect(String(unknown.body.message).replace('Gamma', 'Alpha')).toBe(foreign.body.message);
    }
    expect(await alphaState()).toEqual(before);
  });
});

describe('routes naming a user act only on members of the caller’s own project', () => {
  it.each(
    scoped
      .filter((operation) => operation.path.includes('{userId}'))
      .map((o) => [o.method, o.path, o] as const),
  )('%s %s with an Alpha user id, as Beta’s admin on Beta', async (_method, _path, operation) => {
    const before = await alphaState();
    const res = await call(
      operation,
      fill(operation.path, { ...alphaIds, projectName: 'Beta', environmentName: 'Production' }),
      beta.sessions.admin,
      // A valid change (a promotion), so that only the membership check can refuse it.
      { permissionLevel: 'admin' },
    );
    expect([res.status, res.body.code]).toEqual([404, 'user_not_found']);
    expect(await alphaState()).toEqual(before);
  });
});

describe('unscoped routes', () => {
  // First: the account test below revokes the Beta user's sessions.
  it('the signed-in user’s workspaces list their own projects only', async () => {
    for (const level of PERMISSION_LEVELS) {
      const mine = await request(server.app)
        .get('/v1/me/workspaces')
        .set('authorization', `Bearer ${beta.sessions[level]}`);
      expect([level, mine.status]).toEqual([level, 200]);
      expect(mine.body.projects.map((project: { name: string }) => project.name)).toEqual(['Beta']);
    }
  });

  it('account routes change only the caller’s own account', async () => {
    const before = await alphaState();
    const bob = beta.sessions.user;
    const change = await request(server.app)
      .put('/v1/account/password')
      .set('authorization', `Bearer ${bob}`)
      .send({ currentPassword: 'admin-password-of-Alpha', newPassword: 'y'.repeat(20) });
    expect(change.status).toBe(401);
    const revoke = await request(server.app)
      .post('/v1/account/sessions/revoke')
      .set('authorization', `Bearer ${bob}`)
      .send({ everywhere: true });
    expect(revoke.status).toBe(204);
    const redeem = await request(server.app)
      .post('/v1/account/password')
      .send({ token: 'not-a-token', password: 'z'.repeat(20) });
    expect(redeem.status).toBe(400);
    expect(await alphaState()).toEqual(before);
    const alphaStillIn = await request(server.app)
      .get('/v1/project/Alpha')
      .set('authorization', `Bearer ${alpha.sessions.admin}`);
    expect(alphaStillIn.status).toBe(200);
  });

  it('creating a project touches no other project', async () => {
    const before = await alphaState();
    const created = await request(server.app)
      .post('/v1/projects')
      .set('authorization', `Bearer ${beta.sessions.developer}`)
      .send({ name: 'Alpha' });
    expect(created.status).toBe(409);
    expect(await alphaState()).toEqual(before);
  });
});
