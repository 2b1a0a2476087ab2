import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type Agent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { createTestDatabase, useTestDatabase, type TestDatabase } from '@canopy/test-databases';
import { createUser, type AdminApiServer } from '../../src';
import { loginThroughOidc } from '../helpers/oidc-login';
import { startTestServer } from '../helpers/test-server';
import { createSupportShop, managementApi } from '../helpers/management-api';

// Issue #9, end to end: admin-api-server on PostgreSQL; project, environment, role, team and
// users made through the management API over HTTP; an agent on @canopy/datasource-sql serving a
// PostgreSQL schema of its own; a user logged in to the agent through the OIDC flow driven over
// HTTP; list, read, update and an action with that user's session; then the matching activity
// logs read through the public API with an application token.

const db = useTestDatabase('postgres');
let server: AdminApiServer | undefined;
let shop: TestDatabase | undefined;
let agent: Agent | undefined;

afterAll(async () => {
  await agent?.stop();
  await server?.close();
  await shop?.drop();
});

const SHOP_SQL = `
  CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL);
  CREATE TABLE orders (
    id serial PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers (id),
    amount integer NOT NULL,
    status text NOT NULL
  );
  INSERT INTO customers (name) VALUES ('Grace'), ('Alan');
  INSERT INTO orders (customer_id, amount, status)
    VALUES (1, 120, 'paid'), (2, 80, 'paid'), (1, 40, 'pending');
`;

interface PublicActivityLog {
  type: string;
  action: string;
  label?: string;
  recordIds: string[];
  user: { id: number; email: string };
  team: { name: string };
  environment: { name: string };
  collection?: { name: string };
}

it('logs a user in through OIDC, serves her calls, and shows her activity through the public API', async () => {
  server = await startTestServer(db());
  const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  // The first user (the server has no sign-up): everything else goes through the API.
  const owner = await createUser(server.knex, { email: 'owner@example.com', username: 'Owner' });
  const api = managementApi(url, owner.id);

  const { secret, team, ada } = await createSupportShop(api, { type: 'production' });
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  // Ada sets her own password through the one-time invitation the admin handed her.
  await api('POST', '/v1/account/password', {
    token: ada.invitation.token,
    password: 'correct horse battery',
  });
  // A second member, so the attribution to Ada is not the only possible answer.
  await api('POST', '/v1/project/Shop/members', {
    email: 'bob@example.com',
    firstName: 'Bob',
    lastName: 'Smith',
    permissionLevel: 'user',
    roleName: 'Support',
    teamNames: ['Support'],
  });
  const { token: readToken } = await api('POST', '/v1/project/Shop/application-tokens', {
    name: 'e2e',
    scopes: ['activity_logs:read'],
  });

  shop = await createTestDatabase('postgres');
  await shop.knex.raw(SHOP_SQL);
  agent = createAgent({
    authSecret: 'e2e-agent-auth-secret',
    envSecret: secret,
    serverUrl: url,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-e2e-')), '.canopy-schema.json'),
    logger: () => {},
  })
    .addDataSource(createSqlDataSource(shop.url))
    .customizeCollection('orders', (orders) =>
      orders.addAction('Mark as shipped', {
        scope: 'Single',
        execute: async (context, result) => {
          const id = await context.getRecordId();
          await shop!.knex('orders').where({ id }).update({ status: 'shipped' });
          return result.success('Shipped');
        },
      }),
    )
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  const agentUrl = `http://127.0.0.1:${agent.standaloneServerPort}/forest`;
  // The agent's schema upload declared its collections to the server.
  const environments = (await api('GET', '/v1/project/Shop')).environments as {
    name: string;
    collections: string[];
  }[];
  expect(environments).toEqual([
    expect.objectContaining({ name: 'Production', collections: ['customers', 'orders'] }),
  ]);

  const login = await loginThroughOidc({
    serverUrl: url,
    agentUrl,
    renderingId: team.id,
    email: 'ada@example.com',
    password: 'correct horse battery',
  });
  expect(login.tokenData).toMatchObject({
    id: ada.id,
    email: 'ada@example.com',
    team: 'Support',
    role: 'Support',
    renderingId: team.id,
  });
  // JSON:API documents of several shapes: the assertions say what they expect.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${agentUrl}${path}${separator}timezone=Europe/Paris`, {
      method,
      headers: {
        authorization: `Bearer ${login.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return text ? JSON.parse(text) : null;
  };

  const listed = await call('GET', '/orders');
  expect(listed.data.map((order: { id: string }) => order.id).sort()).toEqual(['1', '2', '3']);
  const read = await call('GET', '/orders/2');
  expect(read.data.attributes).toMatchObject({ amount: 80, status: 'paid' });
  await call('PUT', '/orders/2', {
    data: { type: 'orders', id: '2', attributes: { amount: 90 } },
  });
  expect(await shop.knex('orders').where({ id: 2 }).first('amount')).toEqual({ amount: 90 });
  const action = await call('POST', '/_actions/orders/0/mark-as-shipped', {
    data: {
      type: 'custom-action-requests',
      attributes: {
        collection_name: 'orders',
        ids: ['3'],
        values: {},
        all_records: false,
        all_records_ids_excluded: [],
      },
    },
  });
  expect(action).toMatchObject({ success: 'Shipped' });
  expect(await shop.knex('orders').where({ id: 3 }).first('status')).toEqual({
    status: 'shipped',
  });

  // The agent reports in batches off the request path: poll the public API until all four are in.
  const deadline = Date.now() + 10_000;
  let logs: PublicActivityLog[] = [];
  while (logs.length < 4 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await fetch(
      `${url}/v1/project/Shop/environment/Production/activity-logs?limit=100`,
      { headers: { authorization: `Bearer ${readToken}` } },
    );
    expect(answer.status).toBe(200);
    logs = ((await answer.json()) as { data: PublicActivityLog[] }).data;
  }
  expect(
    logs.reverse().map((log) => ({
      type: log.type,
      action: log.action,
      label: log.label,
      user: { id: log.user.id, email: log.user.email },
      team: log.team.name,
      environment: log.environment.name,
      collection: log.collection?.name,
      recordIds: log.recordIds,
    })),
  ).toEqual(
    [
      { type: 'read', action: 'index', label: 'index orders', recordIds: [] },
      { type: 'read', action: 'read', label: 'read orders', recordIds: ['2'] },
      { type: 'write', action: 'update', label: 'update orders', recordIds: ['2'] },
      { type: 'write', action: 'action', label: 'Mark as shipped', recordIds: ['3'] },
    ].map((expected) => ({
      ...expected,
      user: { id: ada.id, email: 'ada@example.com' },
      team: 'Support',
      environment: 'Production',
      collection: 'orders',
    })),
  );
}, 60_000);
