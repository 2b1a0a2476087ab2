// The client examples of this package's README, run as they are written there (readme.test.ts
// checks that the README shows exactly this file's body between the markers).
import { createAgent, type Agent } from '@canopy/agent-core';
import {
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';
import { mkdtempSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shopDataSource } from './shop';

const SCHEMA_PATH = join(mkdtempSync(join(tmpdir(), 'shop-client-')), '.canopy-schema.json');
let sandbox: ServerSandbox;
let agent: Agent;
let client: AgentTestClient;

afterAll(async () => {
  await agent?.stop();
  await sandbox?.close();
});

beforeAll(async () => {
  sandbox = await createServerSandbox(0);
  // readme:start
  agent = createAgent({
    envSecret: 'ab'.repeat(32),
    authSecret: 'a-long-random-auth-secret',
    serverUrl: sandbox.url,
    schemaPath: SCHEMA_PATH,
    loggerLevel: 'Warn',
  })
    .addDataSource(shopDataSource())
    .addChart('revenue', (context, result) => result.value(1200, 1000))
    .addChart('byStatus', (context, result) => result.distribution({ paid: 3, pending: 1 }))
    .addChart('conversion', (context, result) => result.percentage(42))
    .addChart('target', (context, result) => result.objective(80, 100))
    .addChart('topCustomers', (context, result) => result.leaderboard({ Ada: 2, Alan: 5 }))
    .addChart('perMonth', (context, result) =>
      result.timeBased('Month', [
        { date: '2026-01-15', value: 3 },
        { date: '2026-01-20', value: 2 },
        { date: '2026-03-02', value: 1 },
      ]),
    )
    .addChart('perMonthByStatus', (context, result) =>
      result.multipleTimeBased(
        'Month',
        ['2026-01-15', '2026-02-10'],
        [
          { label: 'paid', values: [1, 2] },
          { label: 'pending', values: [0, null] },
        ],
      ),
    )
    .customizeCollection('orders', (orders) =>
      orders.addExternalRelation('deliveries', {
        schema: { carrier: 'String', day: 'Dateonly' },
        listRecords: (order) => [{ carrier: 'Post', day: `2026-02-0${order.id === 101 ? 1 : 2}` }],
      }),
    )
    .mountOnStandaloneServer(0, '127.0.0.1');
  // readme:end
  await agent.start();
  client = await createAgentTestClient({
    agentEnvSecret: 'ab'.repeat(32),
    agentAuthSecret: 'a-long-random-auth-secret',
    agentUrl: `http://127.0.0.1:${agent.standaloneServerPort}`,
    serverUrl: sandbox.url,
    agentSchemaPath: SCHEMA_PATH,
  });
}, 30_000);

// readme:start
test('client.chart() answers the value of each kind of chart', async () => {
  expect(await client.chart('revenue')).toEqual({ countCurrent: 1200, countPrevious: 1000 });
  expect(await client.chart('byStatus')).toEqual([
    { key: 'paid', value: 3 },
    { key: 'pending', value: 1 },
  ]);
  expect(await client.chart('conversion')).toEqual(42);
  expect(await client.chart('target')).toEqual({ value: 80, objective: 100 });
  expect(await client.chart('topCustomers')).toEqual([
    { key: 'Alan', value: 5 }, // sorted by value, descending
    { key: 'Ada', value: 2 },
  ]);
  expect(await client.chart('perMonth')).toEqual([
    { label: 'Jan 26', values: { value: 5 } }, // summed per period, empty periods filled
    { label: 'Feb 26', values: { value: 0 } },
    { label: 'Mar 26', values: { value: 1 } },
  ]);
  expect(await client.chart('perMonthByStatus')).toEqual({
    labels: ['Jan 26', 'Feb 26'],
    values: [
      { key: 'paid', values: [1, 2] },
      { key: 'pending', values: [0, null] },
    ],
  });
});

test('sets a to-one relation on create through its foreign key', async () => {
  const created = await client.collection('orders').create({
    reference: 'SO-0103',
    status: 'pending',
    customerId: 2, // the foreign key of the `customer` relation
  });
  expect(created).toEqual({ id: 103, reference: 'SO-0103', status: 'pending', customerId: 2 });
  const order = await client
    .collection('orders')
    .getOne(created.id as number, { fields: ['id', 'customer@@@fullName'] });
  expect(order).toEqual({ id: 103, customer: { id: 2, fullName: 'Alan Dupont' } });
});

test('reads an external relation as a field of the record', async () => {
  const order = await client.collection('orders').getOne(101, { fields: ['id', 'deliveries'] });
  expect(order).toEqual({ id: 101, deliveries: [{ carrier: 'Post', day: '2026-02-01' }] });
});
// readme:end

test('asks for exactly the fields it needs with the Forest-Projection header', async () => {
  const orders = client.collection('orders');
  expect(
    await orders.list({
      projection: ['reference', 'customer:fullName'],
      sort: { field: 'reference', ascending: true },
      pagination: { size: 1, number: 1 },
    }),
  ).toEqual([{ id: 101, reference: 'SO-0101', customer: { id: 1, fullName: 'Ada Martin' } }]);
  expect(await orders.getOne(102, { projection: ['status'] })).toEqual({
    id: 102,
    status: 'pending',
  });
  // The header wins over `fields` (agent-http-protocol §6.2).
  expect(await orders.getOne(102, { fields: ['reference'], projection: ['status'] })).toEqual({
    id: 102,
    status: 'pending',
  });
  const chunks: Buffer[] = [];
  const csv = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await orders.exportCsv(csv, {
    projection: ['status', 'reference'],
    header: ['Status', 'Reference'],
    filters: { field: 'id', operator: 'In', value: [101, 102] },
    sort: { field: 'reference', ascending: true },
  });
  expect(Buffer.concat(chunks).toString().trim().split('\n')).toEqual([
    'Status,Reference',
    'paid,SO-0101',
    'pending,SO-0102',
  ]);
  await expect(orders.list({ projection: ['colour'] })).rejects.toMatchObject({ status: 400 });
});
