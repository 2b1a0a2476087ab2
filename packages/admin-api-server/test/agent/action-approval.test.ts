import { createSqlDataSource } from '@canopy/datasource-sql';
import { createTestDatabase, type TestDatabase } from '@canopy/test-databases';
import { bootstrapProject, signSessionToken, type AdminApiServer } from '../../src';
import { createSupportShop, managementApi } from '../helpers/management-api';
import { TEST_KEYS, startTestServer } from '../helpers/test-server';
import { ORDERS_SQL, startScenarioAgent } from './agent-scenario';

// The whole approval round trip with a real agent: the agent asks for an approval (agent-http-protocol §9.7), the
// platform files it, an approval answers a request signed with the env secret, and the agent
// accepts that signed request and runs the action with the requester's values. The platform on
// PostgreSQL and on the embedded store ("Approve and run" used to hang there: the review waited
// for a second connection of its one-connection pool).

describe.each(['postgres', 'embedded-postgres'] as const)('platform on %s', (dialect) => {
  let db: TestDatabase | undefined;
  let server: AdminApiServer | undefined;
  let shopDb: TestDatabase | undefined;
  let stopAgent: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await stopAgent?.();
    // The embedded store takes one connection: the server's pool closes before the schema drops.
    await server?.close();
    await db?.drop();
    await shopDb?.drop();
  }, 60_000);

  it('runs an approved action on the agent through the signed approval request', async () => {
    shopDb = await createTestDatabase('postgres');
    await shopDb.knex.raw(ORDERS_SQL);
    db = await createTestDatabase(dialect);
    server = await startTestServer(db);
    const port = await server.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${port}`;
    const owner = await bootstrapProject(server.knex, {
      project: 'Platform',
      environment: 'Production',
      adminEmail: 'owner@example.com',
    });
    const api = managementApi(url, owner.userId);
    const { secret, team, ada } = await createSupportShop(api);
    const { agent, call } = await startScenarioAgent({
      url,
      envSecret: secret,
      orders: createSqlDataSource(shopDb.url),
      user: {
        id: ada.id,
        email: ada.email,
        team: 'Support',
        role: 'Support',
        renderingId: team.id,
      },
    } as Parameters<typeof startScenarioAgent>[0]);
    stopAgent = () => agent.stop();
    // Rights name collections an agent declared: set once the agent has started.
    await api('PATCH', '/v1/project/Shop/roles/Support', {
      rights: { actions: { orders: { 'Refund order': { approvalRequired: true } } } },
    });

    const attributes = {
      collection_name: 'orders',
      ids: ['1'],
      values: {},
      all_records: false,
      all_records_ids_excluded: [],
      smart_action_id: 'orders-0-refund-order',
    };
    const refused = await call('POST', '/_actions/orders/0/refund-order', {
      data: { type: 'custom-action-requests', attributes },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].name).toBe('CustomActionRequiresApprovalError');

    const session = signSessionToken(TEST_KEYS, {
      userId: ada.id,
      sso: false,
      expiresAt: new Date(Date.now() + 600_000),
    });
    const platform = (path: string, body: unknown) =>
      fetch(`${url}/api/action-approvals${path}?project=Shop&environment=Production`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session}`,
          'content-type': 'application/json',
          'forest-rendering-id': String(team.id),
        },
        body: JSON.stringify(body),
      });
    const filed = await platform('', {
      data: {
        type: 'action-approvals',
        attributes: {
          action_name: 'Refund order',
          collection_name: 'orders',
          smart_action_id: 'orders-0-refund-order',
          record_ids: ['1'],
          inputs: [],
          request: attributes,
        },
      },
    });
    expect(filed.status).toBe(201);
    const { data } = (await filed.json()) as { data: { id: string } };
    // Ada's role may self-approve (absent rights are granted): she approves her own request.
    const approved = await platform(`/${data.id}/approve`, { comment: 'ok' });
    expect(approved.status).toBe(200);
    const { meta } = (await approved.json()) as { meta: { signed_approval_request: string } };

    const ran = await call('POST', '/_actions/orders/0/refund-order', {
      data: {
        type: 'custom-action-requests',
        attributes: { signed_approval_request: meta.signed_approval_request },
      },
    });
    expect(ran).toMatchObject({ status: 200, body: { success: 'Refunded' } });
    // A forged signature is refused by the agent.
    const forged = await call('POST', '/_actions/orders/0/refund-order', {
      data: {
        type: 'custom-action-requests',
        attributes: { signed_approval_request: `${meta.signed_approval_request}x` },
      },
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    // The embedded store migrates a whole platform in-process: a minute under a loaded CI.
  }, 120_000);
});
