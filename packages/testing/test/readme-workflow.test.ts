// The jest workflow of this package's README, run as it is written there (readme.test.ts checks
// that the README shows exactly this file's body between the markers).
// readme:start
import { createAgent, type Agent } from '@canopy/agent-core';
import {
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shopDataSource } from './shop';

const ENV_SECRET = 'ab'.repeat(32); // 64 hex characters
const AUTH_SECRET = 'a-long-random-auth-secret';
const SCHEMA_PATH = join(mkdtempSync(join(tmpdir(), 'shop-')), '.canopy-schema.json');

let sandbox: ServerSandbox;
let agent: Agent;
let client: AgentTestClient;

beforeAll(async () => {
  sandbox = await createServerSandbox(0); // 1. the sandbox first
  agent = createAgent({
    envSecret: ENV_SECRET,
    authSecret: AUTH_SECRET,
    serverUrl: sandbox.url, // 2. the agent talks to it (or set CANOPY_SERVER_URL)
    schemaPath: SCHEMA_PATH,
    isProduction: false,
    loggerLevel: 'Warn',
  })
    .addDataSource(shopDataSource())
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start(); // writes SCHEMA_PATH

  client = await createAgentTestClient({
    agentEnvSecret: ENV_SECRET, // 3. the client last
    agentAuthSecret: AUTH_SECRET,
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl: sandbox.url,
    agentSchemaPath: SCHEMA_PATH,
  });
}, 30_000);

afterAll(async () => {
  await agent?.stop();
  await sandbox?.close();
});

afterEach(() => client.clearPermissionOverride());

test('lists paid orders with their customer', async () => {
  const orders = await client.collection('orders').list({
    filters: { field: 'status', operator: 'Equal', value: 'paid' },
    fields: ['id', 'reference', 'customer@@@fullName'],
  });
  expect(orders).toEqual([
    { id: 101, reference: 'SO-0101', customer: { id: 1, fullName: 'Ada Martin' } },
  ]);
});

test('cannot delete once the role loses the right', async () => {
  await client.overrideCollectionPermission('orders', { deleteEnabled: false });
  await expect(client.collection('orders').delete([102])).rejects.toMatchObject({ status: 403 });
});
// readme:end
