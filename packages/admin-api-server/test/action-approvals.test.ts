import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
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
import { issueMcpTokens } from '../src/auth/mcp-tokens';
import { validateAgainstOurDocument } from './helpers/openapi-validator';
import { startTestServer, TEST_KEYS } from './helpers/test-server';

// Action approvals (platform protocol §9–10): a requester files a request when the agent answers
// CustomActionRequiresApprovalError, an approver of another role approves it and gets the signed
// request the agent verifies with the env secret; tenancy, rights, forgeries and bad input. On
// PostgreSQL and on the embedded store (one connection: a review that asked the pool for a second
// connection while its transaction held the first waited until the pool gave up).

/** The schema the environment's agent uploads: orders with the actions Refund order and Restock. */
const SCHEMA = {
  data: [
    {
      type: 'collections',
      id: 'orders',
      attributes: { name: 'orders', fields: [] },
      relationships: {
        actions: {
          data: [
            { type: 'actions', id: 'orders-0-refund-order' },
            { type: 'actions', id: 'orders-1-restock' },
          ],
        },
      },
    },
    {
      type: 'collections',
      id: 'products',
      attributes: { name: 'products', fields: [] },
      relationships: { actions: { data: [{ type: 'actions', id: 'products-0-discount' }] } },
    },
  ],
  included: [
    { type: 'actions', id: 'orders-0-refund-order', attributes: { name: 'Refund order' } },
    { type: 'actions', id: 'orders-1-restock', attributes: { name: 'Restock' } },
    { type: 'actions', id: 'products-0-discount', attributes: { name: 'Discount' } },
  ],
  meta: { schemaFileHash: 'approvals-schema-1' },
};

describe.each(['postgres', 'embedded-postgres'] as const)('on %s', (dialect) => {
  let db: TestDatabase;
  let server: AdminApiServer;
  let envId: number;
  let otherEnvId: number;
  let secret: string;
  let teamId: number;
  const users: Record<
    'requester' | 'approver' | 'blocked' | 'outsider' | 'member' | 'roleless' | 'restocker',
    number
  > = {
    requester: 0,
    approver: 0,
    blocked: 0,
    outsider: 0,
    member: 0,
    roleless: 0,
    restocker: 0,
  };

  const session = (userId: number) =>
    signSessionToken(TEST_KEYS, {
      userId,
      sso: false,
      expiresAt: new Date(Date.now() + 3_600_000),
    });

  // Every answer is checked against the OpenAPI document: the route, its status and its body.
  const as = (
    who: keyof typeof users,
    method: 'get' | 'post',
    path: string,
    environmentId = envId,
  ) =>
    request(server.app)
      [method](path)
      .set('authorization', `Bearer ${session(users[who])}`)
      .set('forest-environment-id', String(environmentId))
      .expect((response) => validateAgainstOurDocument(method, path, response));

  const fileRequest = (
    who: keyof typeof users = 'requester',
    extra: Record<string, unknown> = {},
  ) =>
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
    db = await createTestDatabase(dialect);
    server = await startTestServer(db);
    const knex = server.knex;
    const project = await createProject(knex, { name: 'Shop', teams: ['Ops'] });
    const production = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
    envId = production.id;
    secret = await issueEnvironmentSecret(knex, envId);
    await request(server.app)
      .post('/forest/apimaps')
      .set('forest-secret-key', secret)
      .send(SCHEMA)
      .expect(200);
    teamId = (await knex('teams').where({ project_id: project.id, name: 'Ops' }).first('id')).id;
    const role = async (name: string, rights: Record<string, unknown>) =>
      (await knex('roles').insert({ project_id: project.id, name, rights }).returning('id'))[0].id;
    // Support must have refunds approved and may not approve them, nor trigger Restock; a Manager
    // must have them approved too (of another), may approve them, but not its own; a Member needs
    // no approval; a Restocker must have Restock approved and may approve (its own too: the
    // default).
    const support = await role('Support', {
      actions: {
        orders: {
          'Refund order': { approvalRequired: true, userApprovalEnabled: false },
          Restock: { triggerEnabled: false, approvalRequired: true },
        },
      },
    });
    const manager = await role('Manager', {
      actions: {
        orders: { 'Refund order': { approvalRequired: true, selfApprovalEnabled: false } },
      },
    });
    const member = await role('Member', {});
    const restocker = await role('Restocker', {
      actions: { orders: { Restock: { approvalRequired: true } } },
    });
    for (const [who, roleId] of [
      ['requester', support],
      ['approver', manager],
      ['blocked', support],
      ['member', member],
      ['roleless', null],
      ['restocker', restocker],
    ] as const) {
      const user = await createUser(knex, { email: `${who}@shop.example`, username: who });
      users[who] = user.id;
      await addProjectMember(knex, {
        projectId: project.id,
        userId: user.id,
        permissionLevel: 'user',
        teamNames: ['Ops'],
      });
      await knex('project_memberships').where({ user_id: user.id }).update({ role_id: roleId });
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
  }, 120_000);

  afterAll(async () => {
    // The embedded store takes one connection: the server's pool closes before the schema drops.
    await server?.close();
    await db?.drop();
  }, 60_000);

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
      action_name: 'Refund order',
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

  it("keeps an input's widget and record reference, so the queue shows values as the form did", async () => {
    const widgetEdit = { name: 'price editor', parameters: { currency: 'EUR', base: 'Unit' } };
    const created = await fileRequest('requester', {
      inputs: [
        { name: 'Amount', type: 'Number', widgetEdit, value: 3138.02 },
        { name: 'Customer', type: 'Number', reference: 'customers.id', value: 1234 },
      ],
    }).expect(201);
    const id = created.body.data.id as string;
    const read = await as('requester', 'get', `/api/action-approvals/${id}`).expect(200);
    expect(read.body.data.attributes.inputs).toEqual([
      { name: 'Amount', type: 'Number', widgetEdit, value: 3138.02 },
      { name: 'Customer', type: 'Number', reference: 'customers.id', value: 1234 },
    ]);
    const unnamed = await fileRequest('requester', {
      inputs: [{ name: 'Amount', widgetEdit: { parameters: {} }, value: 1 }],
    }).expect(400);
    expect(unnamed.body.errors[0].detail).toMatch(/widgetEdit/);
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

  it('refuses forged requests: an action the schema lacks, a role that needs no approval, no rights, a foreign action id', async () => {
    // "Refund order (copy)" is no action of the environment: refused, naming it.
    const copy = await fileRequest('requester', { action_name: 'Refund order (copy)' }).expect(404);
    expect(copy.body.errors[0].detail).toMatch(
      /schema has no action "Refund order \(copy\)" in the collection "orders"/,
    );
    // The action exists, but in another collection.
    const moved = await fileRequest('requester', {
      collection_name: 'products',
      request: null,
    }).expect(404);
    expect(moved.body.errors[0].detail).toMatch(
      /no action "Refund order" in the collection "products"/,
    );
    // A role that needs no approval for the action runs it; it files no request.
    const member = await fileRequest('member').expect(403);
    expect(member.body.errors[0].detail).toMatch(
      /does not need an approval for the action "Refund order"/,
    );
    // No role: no rights, refused.
    const roleless = await fileRequest('roleless').expect(403);
    expect(roleless.body.errors[0].detail).toMatch(/"Refund order"/);
    // Support may not trigger Restock at all: asking for an approval does not get round it.
    const restock = await fileRequest('requester', {
      action_name: 'Restock',
      smart_action_id: null,
    }).expect(403);
    expect(restock.body.errors[0].detail).toMatch(/may not trigger the action "Restock"/);
    // The action id is the schema's: another action's id is refused.
    const foreignId = await fileRequest('requester', {
      smart_action_id: 'orders-1-restock',
    }).expect(400);
    expect(foreignId.body.errors[0].detail).toMatch(/must be "orders-0-refund-order"/);
    // The records the approver sees are the ones the signed request runs on.
    const otherIds = await fileRequest('requester', {
      request: { ids: ['43'], values: { Reason: 'late' } },
    }).expect(400);
    expect(otherIds.body.errors[0].detail).toMatch(/request.ids/);
    expect(
      await server
        .knex('action_approvals')
        .where({ environment_id: envId })
        .whereIn('action_name', ['Refund order (copy)', 'Restock'])
        .count(),
    ).toEqual([{ count: '0' }]);
  });

  it('refuses to approve a request whose action left the schema, and lets a role self-approve by default', async () => {
    // A request filed before the platform checked actions (or for an action since removed).
    const [forged] = await server
      .knex('action_approvals')
      .insert({
        project_id: (await server.knex('environments').where({ id: envId }).first('project_id'))
          .project_id,
        environment_id: envId,
        team_id: teamId,
        requester_id: users.requester,
        status: 'pending',
        action_name: 'Refund order (copy)',
        collection_name: 'orders',
        smart_action_id: 'orders-0-refund-order',
        record_ids: JSON.stringify(['42']),
        inputs: JSON.stringify([]),
      })
      .returning('id');
    const listed = await as('approver', 'get', `/api/action-approvals/${forged.id}`).expect(200);
    expect(listed.body.data.attributes.can_approve).toBe(false);
    const refused = await as('approver', 'post', `/api/action-approvals/${forged.id}/approve`)
      .send({})
      .expect(403);
    expect(refused.body.errors[0].detail).toMatch(/no action "Refund order \(copy\)"/);
    // A member without a role approves nothing, not even a real action's request.
    const real = (await fileRequest('requester').expect(201)).body.data.id;
    const roleless = await as('roleless', 'post', `/api/action-approvals/${real}/approve`)
      .send({})
      .expect(403);
    expect(roleless.body.errors[0].detail).toMatch(/no role in this project/);
    // Self-approval is allowed unless the role sets selfApprovalEnabled to false (the default of
    // role rights): the Restocker approves its own Restock, and the payload names Restock.
    const own = (
      await fileRequest('restocker', { action_name: 'Restock', smart_action_id: null }).expect(201)
    ).body.data;
    expect(own.attributes).toMatchObject({
      smart_action_id: 'orders-1-restock',
      can_approve: true,
    });
    const approved = await as('restocker', 'post', `/api/action-approvals/${own.id}/approve`)
      .send({})
      .expect(200);
    const payload = jwt.verify(approved.body.meta.signed_approval_request, secret) as {
      data: { attributes: Record<string, unknown> };
    };
    expect(payload.data.attributes).toMatchObject({
      collection_name: 'orders',
      smart_action_id: 'orders-1-restock',
      action_name: 'Restock',
      ids: ['42'],
      requester_id: users.restocker,
    });
  });

  it('answers concurrent calls promptly: profiles, approval lists and reviews at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1)
      ids.push((await fileRequest('requester').expect(201)).body.data.id);
    const started = Date.now();
    const calls = [
      ...ids.map((id, i) =>
        as('approver', 'post', `/api/action-approvals/${id}/${i % 2 ? 'reject' : 'approve'}`).send(
          {},
        ),
      ),
      ...Array.from({ length: 6 }, () =>
        as('approver', 'get', '/api/action-approvals?status=pending'),
      ),
      ...Array.from({ length: 6 }, () =>
        request(server.app)
          .get('/v1/me/workspaces')
          .set('authorization', `Bearer ${session(users.requester)}`),
      ),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.status)).toEqual(calls.map(() => 200));
    // Before, a review on the embedded store held its connection and waited for a second one:
    // every call queued behind it until the pool gave up (a minute; now 503 after 5 seconds).
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
