import { useTestDatabase } from '@canopy/test-databases';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  createUser,
  issueEnvironmentSecret,
  signSessionToken,
  type AdminApiServer,
} from '../src';
import { issueMcpTokens } from '../src/mcp-oauth/platform-tokens';
import { validateAgainstOurDocument } from './helpers/openapi-validator';
import { startTestServer, TEST_KEYS } from './helpers/test-server';

// Action approvals (platform protocol §9–10): a requester files a request when the agent answers
// CustomActionRequiresApprovalError, an approver of another role approves it and gets the signed
// request the agent verifies with the env secret; tenancy, rights and bad input.

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let envId: number;
let otherEnvId: number;
let secret: string;
let teamId: number;
const users: Record<'requester' | 'approver' | 'blocked' | 'outsider', number> = {
  requester: 0,
  approver: 0,
  blocked: 0,
  outsider: 0,
};

const session = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 3_600_000) });

// Every answer is checked against the OpenAPI document: the route, its status and its body.
const as = (who: keyof typeof users, method: 'get' | 'post', path: string, environmentId = envId) =>
  request(server.app)
    [method](path)
    .set('authorization', `Bearer ${session(users[who])}`)
    .set('forest-environment-id', String(environmentId))
    .expect((response) => validateAgainstOurDocument(method, path, response));

const fileRequest = (who: keyof typeof users = 'requester', extra: Record<string, unknown> = {}) =>
  as(who, 'post', '/api/action-approvals').send({
    data: {
      type: 'action-approvals',
      attributes: {
        status: null,
        action_name: 'Refund order',
        collection_name: 'orders',
        smart_action_id: 'orders-0-refund-order',
        record_ids: ['42'],
        inputs: [{ name: 'Reason', type: 'String', value: 'late' }],
        request: {
          collection_name: 'orders',
          ids: ['42'],
          values: { Reason: 'late', Amount: 12 },
          all_records: false,
          all_records_ids_excluded: [],
        },
        ...extra,
      },
    },
  });

beforeAll(async () => {
  server = await startTestServer(db());
  const knex = server.knex;
  const project = await createProject(knex, { name: 'Shop', teams: ['Ops'] });
  const production = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  envId = production.id;
  secret = await issueEnvironmentSecret(knex, envId);
  teamId = (await knex('teams').where({ project_id: project.id, name: 'Ops' }).first('id')).id;
  const [support] = await knex('roles')
    .insert({
      project_id: project.id,
      name: 'Support',
      rights: {
        actions: {
          orders: { 'Refund order': { approvalRequired: true, userApprovalEnabled: false } },
        },
      },
    })
    .returning('id');
  const [manager] = await knex('roles')
    .insert({
      project_id: project.id,
      name: 'Manager',
      rights: { actions: { orders: { 'Refund order': { selfApprovalEnabled: false } } } },
    })
    .returning('id');
  for (const [who, role] of [
    ['requester', support.id],
    ['approver', manager.id],
    ['blocked', support.id],
  ] as const) {
    const user = await createUser(knex, { email: `${who}@shop.example`, username: who });
    users[who] = user.id;
    await addProjectMember(knex, {
      projectId: project.id,
      userId: user.id,
      permissionLevel: 'user',
      teamNames: ['Ops'],
    });
    await knex('project_memberships').where({ user_id: user.id }).update({ role_id: role });
  }
  const other = await createProject(knex, { name: 'Other', teams: ['Ops'] });
  otherEnvId = (await createEnvironment(knex, { projectId: other.id, name: 'Production' })).id;
  const outsider = await createUser(knex, { email: 'outsider@other.example', username: 'out' });
  users.outsider = outsider.id;
  await addProjectMember(knex, {
    projectId: other.id,
    userId: outsider.id,
    permissionLevel: 'admin',
    teamNames: ['Ops'],
  });
});

afterAll(async () => {
  await server.close();
});

it('files a request, lists it, and an approver of another role gets a request signed with the env secret', async () => {
  const created = await fileRequest('requester', { comment: 'Customer waited 3 weeks' }).expect(
    201,
  );
  const id = created.body.data.id as string;
  expect(created.body.data.attributes).toMatchObject({
    status: 'pending',
    action_name: 'Refund order',
    record_ids: ['42'],
    requester: { email: 'requester@shop.example' },
    can_approve: false,
    comments: [{ comment: 'Customer waited 3 weeks' }],
  });

  const queue = await as('approver', 'get', '/api/action-approvals?status=pending').expect(200);
  expect(queue.body.data.map((item: { id: string }) => item.id)).toContain(id);
  expect(
    queue.body.data.find((item: { id: string }) => item.id === id).attributes.can_approve,
  ).toBe(true);

  const approved = await as('approver', 'post', `/api/action-approvals/${id}/approve`)
    .send({ comment: 'OK, refund' })
    .expect(200);
  expect(approved.body.data.attributes).toMatchObject({
    status: 'approved',
    reviewer: { email: 'approver@shop.example' },
  });
  const signed = approved.body.meta.signed_approval_request as string;
  const payload = jwt.verify(signed, secret, { algorithms: ['HS256'] }) as {
    data: { attributes: Record<string, unknown> };
  };
  expect(payload.data.attributes).toMatchObject({
    requester_id: users.requester,
    collection_name: 'orders',
    ids: ['42'],
    values: { Reason: 'late', Amount: 12 },
    smart_action_id: 'orders-0-refund-order',
  });
  expect(() => jwt.verify(signed, 'another secret')).toThrow();

  await as('approver', 'post', `/api/action-approvals/${id}/approve`).send({}).expect(409);
  await as('approver', 'post', `/api/action-approvals/${id}/outcome`)
    .send({ outcome: 'succeeded', message: 'Refunded' })
    .expect(200);
  const mine = await as('requester', 'get', '/api/action-approvals?mine=true').expect(200);
  expect(mine.body.data.find((item: { id: string }) => item.id === id).attributes).toMatchObject({
    status: 'approved',
    outcome: 'succeeded',
    outcome_message: 'Refunded',
    comments: [{ comment: 'Customer waited 3 weeks' }, { comment: 'OK, refund' }],
  });

  const logs = await server
    .knex('activity_logs')
    .where({ environment_id: envId })
    .whereIn('action', ['createApproval', 'approveApproval'])
    .orderBy('id')
    .select('action', 'user_id', 'record_ids', 'collection_name');
  expect(logs).toEqual([
    {
      action: 'createApproval',
      user_id: users.requester,
      record_ids: ['42'],
      collection_name: 'orders',
    },
    {
      action: 'approveApproval',
      user_id: users.approver,
      record_ids: ['42'],
      collection_name: 'orders',
    },
  ]);
});

it('lets only roles with the approve right approve, and no self-approval without self-approve', async () => {
  const id = (await fileRequest('requester').expect(201)).body.data.id;
  const denied = await as('blocked', 'post', `/api/action-approvals/${id}/approve`)
    .send({})
    .expect(403);
  expect(denied.body.errors[0].detail).toMatch(/may not approve the action "Refund order"/);
  await as('requester', 'post', `/api/action-approvals/${id}/approve`).send({}).expect(403);
  const own = (await fileRequest('approver').expect(201)).body.data.id;
  const self = await as('approver', 'post', `/api/action-approvals/${own}/approve`)
    .send({})
    .expect(403);
  expect(self.body.errors[0].detail).toMatch(/its own requests/);
  // Rejecting with a comment is logged, and ends the request.
  await as('approver', 'post', `/api/action-approvals/${id}/reject`)
    .send({ comment: 'Not eligible' })
    .expect(200);
  const rejected = await as('requester', 'get', `/api/action-approvals/${id}`).expect(200);
  expect(rejected.body.data.attributes).toMatchObject({
    status: 'rejected',
    comments: [{ comment: 'Not eligible', author: { email: 'approver@shop.example' } }],
  });
  expect(
    await server
      .knex('activity_logs')
      .where({ action: 'rejectApproval', user_id: users.approver })
      .count(),
  ).toEqual([{ count: '1' }]);
});

it('keeps tenants apart: another project answers 404 like an unknown id', async () => {
  const id = (await fileRequest('requester').expect(201)).body.data.id;
  const foreign = await as('outsider', 'get', `/api/action-approvals/${id}`).expect(404);
  const unknownEnv = await as('outsider', 'get', `/api/action-approvals/${id}`, 999_999).expect(
    404,
  );
  expect(foreign.body).toEqual(unknownEnv.body);
  // The outsider's own environment does not hold it either.
  const own = await as('outsider', 'get', `/api/action-approvals/${id}`, otherEnvId).expect(404);
  expect(own.body.errors[0].detail).toMatch(/No action approval \d+ exists in this environment/);
  await as('outsider', 'post', `/api/action-approvals/${id}/approve`, otherEnvId)
    .send({})
    .expect(404);
  const list = await as('outsider', 'get', '/api/action-approvals', otherEnvId).expect(200);
  expect(list.body.data).toEqual([]);
});

it('answers 400 with what is wrong, 401 without a token', async () => {
  const missing = await as('requester', 'post', '/api/action-approvals')
    .send({ data: { attributes: { action_name: 'Refund order', record_ids: [] } } })
    .expect(400);
  expect(missing.body.errors[0].detail).toMatch(/collection_name.*required/);
  const forged = await fileRequest('requester', {
    request: { ids: ['1'], requester_id: 1 },
  }).expect(400);
  expect(forged.body.errors[0].detail).toMatch(/request/);
  const status = await as('requester', 'get', '/api/action-approvals?status=done').expect(400);
  expect(status.body.errors[0].detail).toMatch(/status/);
  await as('requester', 'get', '/api/action-approvals/abc').expect(400);
  const unnamed = await request(server.app)
    .get('/api/action-approvals')
    .set('authorization', `Bearer ${session(users.requester)}`)
    .expect(400);
  expect(unnamed.body.errors[0].detail).toMatch(/Name the environment/);
  // Named by project and environment names instead of an id.
  await request(server.app)
    .get('/api/action-approvals?project=Shop&environment=Production')
    .set('authorization', `Bearer ${session(users.requester)}`)
    .expect(200);
  await request(server.app)
    .get('/api/action-approvals?project=Shop&environment=Production')
    .set('authorization', `Bearer ${session(users.outsider)}`)
    .expect(404);
  await request(server.app)
    .get('/api/action-approvals')
    .set('authorization', 'Bearer not-a-known-token')
    .set('forest-environment-id', String(envId))
    .expect(401);
  await request(server.app).get('/api/action-approvals').expect(401);
  const empty = await as('requester', 'post', '/api/action-approvals/1/comments')
    .send({ data: { attributes: { comment: '' } } })
    .expect(400);
  expect(empty.body.errors[0].detail).toMatch(/comment/);
});

it('takes the MCP server’s call: platform token, rendering header, then a comment', async () => {
  const { access_token } = issueMcpTokens(TEST_KEYS, {
    userId: users.requester,
    environmentId: envId,
    renderingId: teamId,
    clientId: 'mcp-client',
    scope: 'mcp:read mcp:write mcp:action',
  });
  const created = await request(server.app)
    .post('/api/action-approvals')
    .set('authorization', `Bearer ${access_token}`)
    .set('forest-rendering-id', String(teamId))
    .send({
      data: {
        type: 'action-approvals',
        attributes: {
          status: null,
          action_name: 'Refund order',
          collection_name: 'orders',
          record_ids: ['1042'],
          inputs: [{ name: 'Reason', type: 'Enum', value: 'late' }],
        },
      },
    })
    .expect(201);
  const id = created.body.data.id;
  await request(server.app)
    .post(`/api/action-approvals/${id}/comments`)
    .set('authorization', `Bearer ${access_token}`)
    .set('forest-rendering-id', String(teamId))
    .send({ data: { attributes: { comment: 'Customer waited 3 weeks' } } })
    .expect(201);
  await request(server.app)
    .post('/api/action-approvals')
    .set('authorization', `Bearer ${access_token}`)
    .set('forest-rendering-id', '999999')
    .send({})
    .expect(403);
  // Without the requester's call body, the signed request is rebuilt from ids and inputs.
  const approved = await as('approver', 'post', `/api/action-approvals/${id}/approve`)
    .send({})
    .expect(200);
  const payload = jwt.verify(approved.body.meta.signed_approval_request, secret) as {
    data: { attributes: Record<string, unknown> };
  };
  expect(payload.data.attributes).toMatchObject({
    ids: ['1042'],
    values: { Reason: 'late' },
    requester_id: users.requester,
  });
});
