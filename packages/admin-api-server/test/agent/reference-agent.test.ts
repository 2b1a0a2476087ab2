import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '@forestadmin/agent';
import { createSqlDataSource } from '@forestadmin/datasource-sql';

type DataSourceFactory = ReturnType<typeof createSqlDataSource>;
import { createTestDatabase, useTestDatabase, type TestDatabase } from '@canopy/test-databases';
import { createUser, setUserPassword, type AdminApiServer } from '../../src';
import { readForm } from '@canopy/test-browser';
import { createSupportShop, managementApi } from '../helpers/management-api';
import { loginThroughOidc } from '../helpers/oidc-login';
import { startTestServer } from '../helpers/test-server';

// Issue 19, end to end: the real reference agent (@forestadmin/agent 1.78.11 from npm,
// unmodified, on @forestadmin/datasource-sql) against admin-api-server on PostgreSQL. It starts
// (schema stored), a `user`-level member logs in through the browser flow, lists, counts and runs
// a chart the admin allowed her team, sees a role change within seconds, and an MCP client
// authorized through the platform calls the agent's `list` tool, whose activity log the public
// API then lists.

const db = useTestDatabase('postgres');
const CALLBACK = 'http://127.0.0.1:9/mcp-client-callback';
const PASSWORD = 'correct horse battery';
let server: AdminApiServer | undefined;
let shop: TestDatabase | undefined;
let agent: ReturnType<typeof createAgent> | undefined;
let dataSource: { close?: () => Promise<void> } | undefined;
const agentLogs: string[] = [];

beforeAll(() => {
  // The agent prints each refused request on the console in development mode; keep it with its
  // logs, shown if a step times out.
  jest.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    agentLogs.push(parts.map(String).join(' '));
  });
});

afterAll(async () => {
  await agent?.stop();
  // The agent does not close its data sources on stop.
  await dataSource?.close?.();
  await server?.close();
  await shop?.drop();
  jest.restoreAllMocks();
});

const SHOP_SQL = `
  CREATE TABLE orders (id serial PRIMARY KEY, amount integer NOT NULL, status text NOT NULL);
  INSERT INTO orders (amount, status) VALUES (120, 'paid'), (80, 'paid'), (40, 'pending');
`;

/** A free port on 127.0.0.1: the agent's MCP server must know its public URL before it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Polls `check` every 200 ms until it returns a value other than undefined, for `ms` at most. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}. Agent logs:\n${agentLogs.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('serves the unmodified reference agent: start, login, data, charts, role change, MCP', async () => {
  server = await startTestServer(db());
  const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  const owner = await createUser(server.knex, { email: 'owner@example.com', username: 'Owner' });
  const api = managementApi(url, owner.id);
  const agentPort = await freePort();
  const agentOrigin = `http://127.0.0.1:${agentPort}`;

  const { secret, team, ada } = await createSupportShop(api, {
    type: 'production',
    apiEndpoint: agentOrigin,
  });
  await setUserPassword(server.knex, ada.id, PASSWORD);
  const { token: readToken } = await api('POST', '/v1/project/Shop/application-tokens', {
    name: 'interop',
    scopes: ['activity_logs:read'],
  });

  shop = await createTestDatabase('postgres');
  await shop.knex.raw(SHOP_SQL);
  const shopUrl = new URL(shop.url);
  shopUrl.search = '';
  // Its option type picks from sequelize's, which this package does not depend on.
  const sqlOptions = {
    uri: shopUrl.toString(),
    schema: shop.name,
    dialect: 'postgres',
  } as unknown as Parameters<typeof createSqlDataSource>[0];
  agent = createAgent({
    authSecret: 'reference-agent-auth-secret-0123456789',
    envSecret: secret,
    forestServerUrl: url,
    forestAppUrl: url,
    isProduction: false,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-reference-')), '.forestadmin-schema.json'),
    loggerLevel: 'Info',
    logger: (level, message) => agentLogs.push(`${level}: ${message}`),
  })
    .addDataSource(async (...args: Parameters<DataSourceFactory>) => {
      const built = await createSqlDataSource(sqlOptions)(...args);
      dataSource = built as typeof dataSource;
      return built;
    })
    .mountAiMcpServer()
    .mountOnStandaloneServer(agentPort, '127.0.0.1');
  await agent.start();
  const agentUrl = `${agentOrigin}/forest`;

  // Start-up uploaded the schema; MCP servers download it back.
  const environments = (await api('GET', '/v1/project/Shop')).environments as {
    collections: string[];
  }[];
  expect(environments[0]!.collections).toEqual(['orders']);
  const schema = await fetch(`${url}/liana/forest-schema`, {
    headers: { 'forest-secret-key': secret },
  });
  expect(schema.status).toBe(200);
  expect(((await schema.json()) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([
    'orders',
  ]);

  // Browser login: the callback page's code, state and iss go to the agent's callback.
  const login = await loginThroughOidc({
    serverUrl: url,
    agentUrl,
    renderingId: team.id,
    email: 'ada@example.com',
    password: PASSWORD,
  });
  expect(login.tokenData).toMatchObject({
    id: ada.id,
    email: 'ada@example.com',
    permissionLevel: 'user',
    team: 'Support',
    role: 'Support',
    renderingId: team.id,
  });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${agentUrl}${path}${path.includes('?') ? '&' : '?'}timezone=Europe/Paris`, {
      method,
      headers: {
        authorization: `Bearer ${login.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const listed = await call('GET', '/orders?fields[orders]=id,amount,status');
  expect(listed.status).toBe(200);
  const records = ((await listed.json()) as { data: { id: string }[] }).data;
  expect(records.map((order) => order.id).sort()).toEqual(['1', '2', '3']);
  const counted = await call('GET', '/orders/count');
  expect(await counted.json()).toEqual({ count: 3 });

  // Charts: a `user`-level member runs only the charts stored for her team.
  const chart = { type: 'Value', sourceCollectionName: 'orders', aggregator: 'Count' };
  const refusedChart = await call('POST', '/stats/orders', chart);
  expect(refusedChart.status).toBe(403);
  await api('PUT', '/v1/project/Shop/teams/Support/charts', { charts: [chart] });
  const value = await eventually('the chart to be allowed', async () => {
    const answer = await call('POST', '/stats/orders', chart);
    return answer.status === 200 ? answer.json() : undefined;
  });
  expect(value).toMatchObject({
    data: { type: 'stats', attributes: { value: { countCurrent: 3 } } },
  });

  // A role change reaches the running agent through the event stream.
  await api('PATCH', '/v1/project/Shop/roles/Support', {
    rights: { collections: { orders: { browseEnabled: false } } },
  });
  await eventually('the role change to reach the agent', async () =>
    (await call('GET', '/orders?fields[orders]=id')).status === 403 ? true : undefined,
  );
  await api('PATCH', '/v1/project/Shop/roles/Support', { rights: {} });
  await eventually('the role change back to reach the agent', async () =>
    (await call('GET', '/orders?fields[orders]=id')).status === 200 ? true : undefined,
  );

  // MCP: a client registers on the platform, Ada authorizes it through the platform's sign-in
  // page, the agent's MCP server exchanges the code, and the client calls the `list` tool.
  const registered = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'interop client', redirect_uris: [CALLBACK] }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${agentOrigin}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'interop',
    scope: 'mcp:read mcp:write',
  }).toString();
  const relayed = await fetch(authorize, { redirect: 'manual' });
  expect(relayed.status).toBe(302);
  const signIn = new URL(relayed.headers.get('location')!);
  expect(`${signIn.origin}${signIn.pathname}`).toBe(`${url}/oauth/authorize`);
  const form = readForm(await (await fetch(signIn)).text());
  const signedIn = await fetch(new URL(form.action, url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...form.fields,
      email: 'ada@example.com',
      password: PASSWORD,
    }).toString(),
  });
  const back = new URL(signedIn.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  const exchanged = await fetch(`${agentOrigin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
      client_id: clientId,
    }).toString(),
  });
  const tokens = (await exchanged.json()) as { access_token: string };
  expect(exchanged.status).toBe(200);

  const toolCall = await fetch(`${agentOrigin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list', arguments: { collectionName: 'orders' } },
    }),
  });
  expect(toolCall.status).toBe(200);
  const text = await toolCall.text();
  const message = JSON.parse(
    text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6),
  ) as { result: { isError?: boolean; content: { text: string }[] } };
  expect(message.result.isError ?? false).toBe(false);
  expect(JSON.parse(message.result.content[0]!.text).records).toHaveLength(3);

  // The tool's activity log, opened before the call and completed after it, in the public API.
  const logs = await eventually('the MCP activity log to be completed', async () => {
    const completed = await server!
      .knex('activity_log_requests')
      .where({ status: 'completed' })
      .pluck('external_id');
    if (completed.length === 0) return undefined;
    const answer = await fetch(
      `${url}/v1/project/Shop/environment/Production/activity-logs?limit=100`,
      { headers: { authorization: `Bearer ${readToken}` } },
    );
    const data = ((await answer.json()) as { data: { id: string }[] }).data;
    return data.filter((log) => completed.includes(log.id));
  });
  expect(logs).toEqual([
    expect.objectContaining({
      type: 'read',
      action: 'index',
      user: expect.objectContaining({ id: ada.id, email: 'ada@example.com' }),
      team: { object: 'team', name: 'Support' },
      collection: { object: 'collection', name: 'orders' },
    }),
  ]);
}, 120_000);
