/**
 * A real agent on the in-memory data source against the sandbox: start, schema file and upload,
 * restart, typings, activity logs in batches, and a stop that lets the process exit.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAgent, type Agent } from '@canopy/agent-core';
import {
  createAgentTestClient,
  createServerSandbox,
  type ActivityLogEntry,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';
import { shopDataSource } from './shop';

const ENV_SECRET = 'ef'.repeat(32);
const AUTH_SECRET = 'lifecycle-auth-secret';
const directory = mkdtempSync(join(tmpdir(), 'canopy-lifecycle-'));
const schemaPath = join(directory, '.canopy-schema.json');
const typingsPath = join(directory, 'typings.d.ts');

let sandbox: ServerSandbox;
let agent: Agent;
let client: AgentTestClient;

const schemaFile = () =>
  JSON.parse(readFileSync(schemaPath, 'utf8')) as {
    collections: { name: string; fields: { field: string }[] }[];
    meta: { liana: string };
  };
const fieldsOf = (name: string) =>
  schemaFile()
    .collections.find((collection) => collection.name === name)
    ?.fields.map(({ field }) => field);

beforeAll(async () => {
  sandbox = await createServerSandbox(0);
  agent = createAgent({
    envSecret: ENV_SECRET,
    authSecret: AUTH_SECRET,
    serverUrl: sandbox.url,
    schemaPath,
    typingsPath,
    isProduction: false,
    loggerLevel: 'Warn',
  })
    .addDataSource(shopDataSource())
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  client = await createAgentTestClient({
    agentEnvSecret: ENV_SECRET,
    agentAuthSecret: AUTH_SECRET,
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl: sandbox.url,
    agentSchemaPath: schemaPath,
  });
}, 30_000);

afterAll(async () => {
  await agent?.stop();
  await sandbox?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('start', () => {
  it('writes the schema file and uploads it once', () => {
    expect(schemaFile().meta.liana).toBe('canopy-agent');
    expect(fieldsOf('orders')).toEqual(['customer', 'id', 'reference', 'status']);
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(1);
    expect(sandbox.schema(ENV_SECRET)?.collections.map(({ name }) => name)).toEqual([
      'customers',
      'orders',
    ]);
  });

  it('writes typings that describe the collections', () => {
    const typings = readFileSync(typingsPath, 'utf8');
    expect(typings).toContain("'orders'");
    expect(typings).toMatch(/reference/);
    expect(typings).toMatch(/fullName/);
  });
});

describe('restart', () => {
  it('does not upload an unchanged schema again, and keeps the socket', async () => {
    const port = agent.standaloneServerPort;
    await agent.restart();
    expect(agent.standaloneServerPort).toBe(port);
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(1);
    // A restart is a whole start (schema, typings, the platform's answers): more than jest's
    // default 5 s on a loaded CI machine.
  }, 30_000);

  it('replays customizations added since, uploads the new schema and serves it', async () => {
    agent.customizeCollection('orders', (orders) =>
      orders.addField('label', {
        columnType: 'String',
        dependencies: ['reference', 'status'],
        getValues: (records) => records.map((r) => `${r.reference} (${r.status})`),
      }),
    );
    await agent.restart();
    expect(fieldsOf('orders')).toContain('label');
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(2);
    const [order] = await client.collection('orders').list({
      filters: { field: 'id', operator: 'Equal', value: 101 },
      fields: ['id', 'label'],
    });
    expect(order).toEqual({ id: 101, label: 'SO-0101 (paid)' });
  }, 30_000);
});

describe('activity logs', () => {
  it('reach the platform in batches, off the request path', async () => {
    const customerLists = (logs: ActivityLogEntry[]) =>
      logs.filter((log) => log.collectionName === 'customers' && log.action === 'index');
    await Promise.all(
      Array.from({ length: 12 }, () => client.collection('customers').list({ fields: ['id'] })),
    );
    const logs = await sandbox.waitForActivityLogs((all) => customerLists(all).length >= 12, {
      envSecret: ENV_SECRET,
    });
    expect(customerLists(logs).every((log) => log.userId === 1 && log.type === 'read')).toBe(true);
    // Fewer requests than logs: the reporter batches.
    expect(sandbox.activityLogBatches(ENV_SECRET).length).toBeLessThan(logs.length);
  });
});

describe('stop', () => {
  it('closes everything so the process exits on its own', async () => {
    const script = join(__dirname, 'fixtures', 'start-and-stop.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [require.resolve('tsx/cli'), script],
      { cwd: join(__dirname, '..'), timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    // The script does not call process.exit: reaching this line means nothing kept it alive.
    expect(stdout.trim().split('\n').at(-1)).toBe('stopped: 2 customers listed');
  }, 90_000);
});
