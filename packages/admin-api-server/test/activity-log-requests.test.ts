import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { bootstrapProject, createUser, addProjectMember, type AdminApiServer } from '../src';
import { issueMcpTokens } from '../src/auth/mcp-tokens';
import { startTestServer, TEST_KEYS, tokenFor } from './helpers/test-server';

// Platform protocol section 10: the activity logs an MCP server opens before a tool call (with
// the user's platform token) and closes after it, stored with the agents' own logs.

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let accessToken: string;
let readToken: string;
let teamId: number;
let environmentId: number;

beforeAll(async () => {
  server = await startTestServer(db());
  const { userId } = await bootstrapProject(server.knex, {
    project: 'Shop',
    environment: 'Production',
    adminEmail: 'ada@example.com',
  });
  const project = await server.knex('projects').first('id', 'name', 'sso_enabled');
  environmentId = (await server.knex('environments').first('id')).id;
  teamId = (await server.knex('teams').first('id')).id;
  accessToken = issueMcpTokens(TEST_KEYS, {
    userId,
    environmentId,
    renderingId: teamId,
    clientId: 'mcp-client',
    scope: 'mcp:read mcp:write',
  }).access_token;
  readToken = await tokenFor(server, project, userId, ['activity_logs:read']);
});

afterAll(async () => {
  await server.close();
});

const withToken = (method: 'post' | 'patch', path: string, token = accessToken) =>
  request(server.app)[method](path).set('authorization', `Bearer ${token}`);

const publicLogs = async () =>
  (
    await request(server.app)
      .get('/v1/project/Shop/environment/Production/activity-logs?limit=100')
      .set('authorization', `Bearer ${readToken}`)
      .expect(200)
  ).body.data as Record<string, unknown>[];

it('stores an MCP log, lists it in the public API, and takes its status update', async () => {
  const created = await withToken('post', '/api/activity-logs-requests/mcp')
    .set('forest-application-source', 'MCP')
    .send({
      type: 'read',
      action: 'index',
      status: 'pending',
      records: [],
      renderingId: String(teamId),
      collectionModelName: 'orders',
    })
    .expect(200);
  const { id, attributes } = created.body.data;
  expect(created.body.data).toEqual({
    type: 'activity-logs-requests',
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    attributes: { index: expect.any(String) },
  });
  expect(await publicLogs()).toEqual([
    expect.objectContaining({
      id,
      type: 'read',
      action: 'index',
      collection: { object: 'collection', name: 'orders' },
      user: expect.objectContaining({ email: 'ada@example.com' }),
      status: 'pending',
    }),
  ]);
  await withToken('patch', `/api/activity-logs-requests/${attributes.index}/${id}/status`)
    .send({ status: 'completed' })
    .expect(204);
  expect(
    await server.knex('activity_log_requests').where({ external_id: id }).first('status'),
  ).toEqual({ status: 'completed' });
  // The list carries the outcome, so the console can tell a failed operation from a done one.
  expect((await publicLogs())[0]).toMatchObject({ id, status: 'completed' });
  await withToken('patch', `/api/activity-logs-requests/${attributes.index}/${id}/status`)
    .send({ status: 'failed' })
    .expect(204);
  expect((await publicLogs())[0]).toMatchObject({ id, status: 'failed' });
  // An unknown log is a 404 (the MCP server retries those), in the agents' error shape.
  const unknown = await withToken(
    'patch',
    `/api/activity-logs-requests/${attributes.index}/nope/status`,
  )
    .send({ status: 'failed' })
    .expect(404);
  expect(unknown.body.errors[0]).toMatchObject({ status: 404 });
});

it('stores the JSON:API variant the workflow executor sends', async () => {
  const created = await withToken('post', '/api/activity-logs-requests')
    .send({
      data: {
        id: 1,
        type: 'activity-logs-requests',
        attributes: {
          type: 'write',
          action: 'update',
          label: 'updated',
          status: 'pending',
          records: ['1042'],
        },
        relationships: {
          rendering: { data: { id: teamId, type: 'renderings' } },
          collection: { data: { id: 'orders', type: 'collections' } },
        },
      },
    })
    .expect(200);
  expect((await publicLogs())[0]).toMatchObject({
    id: created.body.data.id,
    action: 'update',
    label: 'updated',
    recordIds: ['1042'],
  });
});

it('refuses bad tokens with 401 and bad bodies with 400, naming the field', async () => {
  const body = { type: 'read', action: 'index', status: 'pending', records: [] };
  for (const token of ['not-a-token', 'a'.repeat(600), 'bad.token!']) {
    const answer = await withToken('post', '/api/activity-logs-requests/mcp', token)
      .send(body)
      .expect(401);
    expect(answer.body.errors[0].detail).toMatch(/access token is unknown or expired/);
  }
  await request(server.app).post('/api/activity-logs-requests/mcp').send(body).expect(401);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...body, type: 'peek' }, /type must be read or write/],
    [{ ...body, action: 'fly' }, /action must be one of the activity-log actions/],
    [{ ...body, records: [{}] }, /records must be an array/],
    [{ ...body, renderingId: '3000000000000' }, /renderingId must be a rendering id/],
    [{ ...body, status: 'done' }, /status must be pending, completed or failed/],
  ];
  for (const [sent, detail] of cases) {
    const answer = await withToken('post', '/api/activity-logs-requests/mcp')
      .send(sent)
      .expect(400);
    expect(answer.body.errors[0].detail).toMatch(detail);
  }
  await withToken('post', '/api/activity-logs-requests').send({ data: 'x' }).expect(400);
  await withToken('patch', '/api/activity-logs-requests/activity-logs/x/status')
    .send({ status: 'pending' })
    .expect(400);
});

it("lets no user close another user's log, nor log in a project they left", async () => {
  const bob = await createUser(server.knex, { email: 'bob@example.com', username: 'Bob' });
  const project = await server.knex('projects').first('id');
  await addProjectMember(server.knex, {
    projectId: project.id,
    userId: bob.id,
    permissionLevel: 'user',
  });
  const bobToken = issueMcpTokens(TEST_KEYS, {
    userId: bob.id,
    environmentId,
    renderingId: teamId,
    clientId: 'mcp-client',
    scope: 'mcp:read',
  }).access_token;
  const created = await withToken('post', '/api/activity-logs-requests/mcp')
    .send({ type: 'read', action: 'index', status: 'pending', records: [] })
    .expect(200);
  const { id, attributes } = created.body.data;
  await withToken('patch', `/api/activity-logs-requests/${attributes.index}/${id}/status`, bobToken)
    .send({ status: 'failed' })
    .expect(404);
  await server.knex('project_memberships').where({ user_id: bob.id }).delete();
  await withToken('post', '/api/activity-logs-requests/mcp', bobToken)
    .send({ type: 'read', action: 'index', status: 'pending', records: [] })
    .expect(403);
});
