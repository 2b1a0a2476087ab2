/**
 * The demo's agent, tested the way you would test your own: a platform sandbox, the agent started
 * against it on a real database, and the test client driving it like the admin front end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createAgent, type Agent, type PlainConditionTree } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import {
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';
import { customizeShop } from '../src/agent';
import { EUROPE_COUNTRIES, EUROPE_SCOPES } from '../src/console';
import { seedShop } from '../src/seed';

const ENV_SECRET = 'cd'.repeat(32);
const AUTH_SECRET = 'demo-test-auth-secret-long-enough';

const db = useTestDatabase('postgres');
const directory = mkdtempSync(join(tmpdir(), 'canopy-demo-test-'));
const schemaPath = join(directory, '.canopy-schema.json');

let sandbox: ServerSandbox;
let agent: Agent;
let client: AgentTestClient;

beforeAll(async () => {
  await seedShop(db().knex, { customers: 60, products: 20, orders: 200 });

  sandbox = await createServerSandbox(0);
  agent = customizeShop(
    createAgent({
      envSecret: ENV_SECRET,
      authSecret: AUTH_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      loggerLevel: 'Error',
    }).addDataSource(createSqlDataSource(db().url)),
  ).mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();

  client = await createAgentTestClient({
    agentEnvSecret: ENV_SECRET,
    agentAuthSecret: AUTH_SECRET,
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl: sandbox.url,
    agentSchemaPath: schemaPath,
  });
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await sandbox?.close();
  rmSync(directory, { recursive: true, force: true });
});

afterEach(() => client.clearPermissionOverride());

describe('customers', () => {
  it('shows computed, renamed and flattened fields, and hides removed ones', async () => {
    const [customer] = await client.collection('customers').list({
      filters: { field: 'id', operator: 'Equal', value: 1 },
      fields: ['id', 'fullName', 'tier', 'signedUpAt', 'address@@@city', 'address@@@geo@@@lat'],
    });
    expect(customer).toEqual({
      id: 1,
      fullName: expect.stringMatching(/^\w+ [\w -]+$/),
      tier: expect.stringMatching(/^(standard|vip)$/),
      signedUpAt: expect.any(String),
      'address@@@city': expect.any(String),
      'address@@@geo@@@lat': expect.any(Number),
    });
    const capabilities = (await client.collection('customers').capabilities()) as {
      fields: { name: string }[];
    };
    const fields = capabilities.fields.map((field) => field.name);
    expect(fields).not.toContain('is_vip');
    expect(fields).not.toContain('address');
  });

  it("applies the team Europe's scope on the flattened country in SQL", async () => {
    const everyone = await client.collection('customers').list({
      fields: ['id', 'address@@@country'],
      pagination: { size: 60, number: 1 },
    });
    const european = everyone.filter((row) =>
      EUROPE_COUNTRIES.includes(String(row['address@@@country'])),
    );
    expect(european.length).toBeGreaterThan(0);
    expect(european.length).toBeLessThan(everyone.length);
    await sandbox.setScope('customers', EUROPE_SCOPES.customers as PlainConditionTree);
    try {
      const read = () =>
        client.collection('customers').list({
          fields: ['id', 'address@@@country'],
          pagination: { size: 60, number: 1 },
        });
      // The agent drops its cached scopes when the platform's event reaches it.
      let scoped = await read();
      for (const started = Date.now(); scoped.length === everyone.length;) {
        if (Date.now() - started > 20_000) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
        scoped = await read();
      }
      expect(scoped).toEqual(european);
    } finally {
      await sandbox.setScope('customers', null);
    }
  }, 30_000);

  it('searches by e-mail through the replaced search', async () => {
    const found = await client
      .collection('customers')
      .search('customer42@', { fields: ['id', 'email'] });
    expect(found).toEqual([{ id: 42, email: 'customer42@example.com' }]);
  });

  it('sorts by the emulated full name', async () => {
    const rows = await client.collection('customers').list({
      fields: ['id', 'fullName'],
      sort: { field: 'fullName', ascending: true },
      pagination: { size: 60, number: 1 },
    });
    const names = rows.map((row) => String(row.fullName));
    // Emulated sorting compares strings as JavaScript does (code points), like the data sources.
    expect(names).toEqual([...names].sort());
  });

  it('refuses an e-mail without @ with a validation error', async () => {
    await expect(
      client.collection('customers').update(1, { email: 'not-an-email' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('puts the limits of names and coordinates in the schema, and refuses values over them', async () => {
    const { readFileSync } = await import('node:fs');
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as {
      collections: { name: string; fields: { field: string; validations?: unknown[] }[] }[];
    };
    const fields = schema.collections.find((c) => c.name === 'customers')!.fields;
    const rules = (name: string) => fields.find((f) => f.field === name)?.validations;
    expect(rules('first_name')).toContainEqual(
      expect.objectContaining({ type: 'is shorter than', value: 101 }),
    );
    expect(rules('address@@@geo@@@lat')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'is greater than', value: -90 }),
        expect.objectContaining({ type: 'is less than', value: 90 }),
      ]),
    );
    await expect(
      client.collection('customers').update(1, { first_name: 'x'.repeat(300) }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      client.collection('customers').update(1, { 'address@@@geo@@@lat': 999 }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('computes the external loyalty events of a customer', async () => {
    const customer = await client
      .collection('customers')
      .getOne(4, { fields: ['id', 'loyaltyEvents'] });
    const events = customer.loyaltyEvents as { reason: string; points: number }[];
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ reason: 'welcome', points: expect.any(Number) });
  });
});

describe('orders', () => {
  it('filters the Pending segment and exports it as CSV', async () => {
    const pending = await client
      .collection('orders')
      .segment('Pending')
      .list({
        fields: ['id', 'status', 'customerName', 'total'],
        pagination: { size: 5, number: 1 },
      });
    expect(pending.length).toBe(5);
    for (const order of pending) {
      expect(order).toMatchObject({ status: 'pending', customerName: expect.any(String) });
      expect(order.total).toEqual(expect.any(Number));
    }

    let csv = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        csv += String(chunk);
        done();
      },
    });
    await client
      .collection('orders')
      .segment('Pending')
      .exportCsv(sink, { fields: ['id', 'status'] });
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('id,status');
    expect(lines.slice(1).every((line) => line.endsWith(',pending'))).toBe(true);
  });

  it('marks orders as shipped with the bulk action', async () => {
    const [first, second] = await client.collection('orders').list({
      filters: { field: 'status', operator: 'Equal', value: 'paid' },
      fields: ['id'],
      pagination: { size: 2, number: 1 },
    });
    const action = await client
      .collection('orders')
      .action('Mark as shipped', { recordIds: [first!.id as number, second!.id as number] });
    expect(await action.execute()).toMatchObject({ success: '2 orders shipped.' });
    const after = await client.collection('orders').list({
      filters: { field: 'id', operator: 'In', value: [first!.id, second!.id] },
      fields: ['status'],
    });
    expect(after.map((order) => order.status)).toEqual(['shipped', 'shipped']);
  });

  it('flags orders: the team field appears once a reason is chosen', async () => {
    const orders = await client.collection('orders').list({
      fields: ['id'],
      pagination: { size: 2, number: 1 },
    });
    const action = await client.collection('orders').action('Flag for review', {
      recordIds: orders.map((order) => order.id as number),
    });
    expect(action.doesFieldExist('Team')).toBe(false);
    await action.getField('Reason').select('fraud');
    expect(action.doesFieldExist('Team')).toBe(true);
    await action.setFields({ Team: 'Risk' });
    expect(await action.execute()).toMatchObject({
      success: '2 orders flagged for Risk.',
      html: expect.stringContaining('<strong>fraud</strong>'),
    });
  });

  it('pre-fills the refund amount with the order total and refunds', async () => {
    const [order] = await client.collection('orders').list({
      filters: { field: 'status', operator: 'Equal', value: 'paid' },
      fields: ['id', 'total'],
      pagination: { size: 1, number: 1 },
    });
    const action = await client
      .collection('orders')
      .action('Refund order', { recordId: order!.id as number });
    expect(action.getField('Amount').getValue()).toBe(order!.total);
    expect(action.doesFieldExist('Details')).toBe(false);
    await action.getField('Reason').select('other');
    expect(action.doesFieldExist('Details')).toBe(true);
    await action.setFields({ Details: 'Customer moved away' });
    expect(await action.execute()).toMatchObject({
      success: 'Order refunded',
      html: expect.stringContaining('Refunded'),
    });
  });

  it('declines to refund an order already refunded, when its form loads', async () => {
    const [order] = await client.collection('orders').list({
      filters: { field: 'status', operator: 'Equal', value: 'refunded' },
      fields: ['id'],
      pagination: { size: 1, number: 1 },
    });
    await expect(
      client.collection('orders').action('Refund order', { recordId: order!.id as number }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining(`Order #${String(order!.id)} is already refunded`),
    });
  });

  it('refuses to delete shipped orders from a hook', async () => {
    const [shipped] = await client.collection('orders').list({
      filters: { field: 'status', operator: 'Equal', value: 'shipped' },
      fields: ['id'],
      pagination: { size: 1, number: 1 },
    });
    await expect(client.collection('orders').delete([shipped!.id as number])).rejects.toMatchObject(
      {
        status: 403,
      },
    );
  });

  it('denies an action when the role may not trigger it', async () => {
    await client.overrideActionPermission('orders', 'Mark as shipped', { triggerEnabled: false });
    const action = await client.collection('orders').action('Mark as shipped', { recordIds: [1] });
    await expect(action.execute()).rejects.toMatchObject({ status: 403 });
  });
});

describe('products and charts', () => {
  it('searches suppliers as the user types in the restock dropdown', async () => {
    const action = await client.collection('products').action('Restock', { recordId: 1 });
    const options = await action.search('Supplier', 'tex');
    expect(options).toEqual([{ label: 'Indigo Textiles', value: 'Indigo Textiles' }]);
  });

  it('plans a promotion: the summary follows the form, the banner field follows the channel', async () => {
    const action = await client.collection('products').action('Plan a promotion');
    expect(action.getField('Summary').getValue()).toBe('Untitled: 10% off');
    expect(action.doesFieldExist('Banner image')).toBe(false);
    await action.setFields({ Title: 'Winter sale', Discount: 15 });
    await action.getField('Channel').select('banner');
    expect(action.doesFieldExist('Banner image')).toBe(true);
    expect(action.getField('Summary').getValue()).toBe('Winter sale: 15% off by banner');
    expect(await action.execute()).toMatchObject({
      success: 'Promotion “Winter sale” scheduled.',
      html: expect.stringMatching(/Discount: number 15.*Ends on: string 2026-12-24/),
    });
  });

  it('computes the data-source charts', async () => {
    expect(await client.chart('customersObjective')).toEqual({ value: 60, objective: 10_000 });
    const rate = (await client.chart('deliveryRate')) as number;
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThan(100);
    const leaderboard = (await client.chart('topCategories')) as { key: string; value: number }[];
    expect(leaderboard.map((row) => row.value)).toEqual(
      [...leaderboard.map((row) => row.value)].sort((a, b) => b - a),
    );
  });
});

describe('activity logs', () => {
  it('reports what the test did to the platform', async () => {
    const logs = await sandbox.waitForActivityLogs((all) =>
      all.some((log) => log.action === 'action' && log.collectionName === 'orders'),
    );
    expect(logs.some((log) => log.action === 'search' && log.collectionName === 'customers')).toBe(
      true,
    );
  });
});
