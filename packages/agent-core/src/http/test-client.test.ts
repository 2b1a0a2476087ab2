import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import {
  ActionFailedError,
  ActionRequiresApprovalError,
  AgentHttpError,
  createAgentTestClient,
  createServerSandbox,
  type AgentTestClient,
  type ServerSandbox,
} from '@canopy/testing';

import { createAgent } from '../agent/create-agent';
import type { Agent } from '../agent/agent';
import { ShopWithActions } from './test-fixtures/action-collection';

const ENV_SECRET = 'ab'.repeat(32);
const AUTH_SECRET = 'test-client-auth-secret';

describe('the test client against a running agent', () => {
  let sandbox: ServerSandbox;
  let agent: Agent;
  let client: AgentTestClient;

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    const schemaPath = join(
      mkdtempSync(join(tmpdir(), 'canopy-http-client-')),
      '.canopy-schema.json',
    );
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(async () => new ShopWithActions())
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
  });

  afterEach(() => client.clearPermissionOverride());

  it('lists, counts and reads records as plain objects', async () => {
    const orders = client.collection('orders');
    const paid = await orders.list({
      filters: { field: 'status', operator: 'Equal', value: 'paid' },
      fields: ['id', 'reference', 'customer@@@fullName'],
    });
    expect(paid).toEqual([
      { id: 101, reference: 'SO-0101', customer: { id: 1, fullName: 'Ada Martin' } },
    ]);
    expect(await orders.count()).toBe(3);
    const page = await orders.list({
      sort: { field: 'id', ascending: false },
      pagination: { size: 1, number: 2 },
    });
    expect(page.map((record) => record.id)).toEqual([102]);
    expect(await orders.getOne(103)).toMatchObject({
      id: 103,
      customer: { id: 2, fullName: 'Bob Stone' },
    });
  });

  it('searches through the search the customizer emulates', async () => {
    const found = await client.collection('customers').search('bob');
    expect(found.map((record) => record.fullName)).toEqual(['Bob Stone']);
  });

  it('creates, updates and deletes', async () => {
    const customers = client.collection('customers');
    const created = await customers.create({
      fullName: 'Cleo Park',
      email: 'cleo@shop.test',
      region: 'EU',
    });
    expect(created).toMatchObject({ id: 3, fullName: 'Cleo Park' });
    expect(await customers.update(3, { region: 'US' })).toMatchObject({ id: 3, region: 'US' });
    await customers.delete([3]);
    expect(await customers.count()).toBe(2);
  });

  it('exports CSV into a stream', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    await client.collection('payments').exportCsv(sink, { fields: ['id', 'amount'] });
    expect(text).toBe('id,amount\n1,100\n2,20\n3,48.5\n');
  });

  it('lists, counts, associates and dissociates related records', async () => {
    const products = client.collection('orders').relation('products', 101);
    expect((await products.list()).map((record) => record.label)).toEqual(['Teapot']);
    await products.associate('0c0ffee0-1d6e-4a8e-9a51-3f4b2c1d0e9f');
    expect(await products.count()).toBe(2);
    await products.dissociate(['0c0ffee0-1d6e-4a8e-9a51-3f4b2c1d0e9f']);
    expect(await products.count()).toBe(1);
  });

  it('fills a dynamic form through the change hook and executes the action', async () => {
    const action = await client
      .collection('orders')
      .action('Mark as paid', { recordIds: [101, 102] });
    expect(action.doesFieldExist('Message')).toBe(false);
    await action.getField('Payment method').select('card');
    await action.getField('Notify customer').check();
    expect(action.getField('Message').getValue()).toBe('Thanks!');
    await action.setFields({
      Receipt: { buffer: Buffer.from('PDF'), mimeType: 'application/pdf', name: 'r.pdf' },
    });
    expect(await action.execute()).toEqual({
      success: '2 orders marked as paid',
      html: '<p>Done</p>',
      refresh: { relationships: ['payments'] },
    });
  });

  it('searches a dynamic dropdown, and reports error results and approvals', async () => {
    const ship = await client.collection('orders').action('Ship', { recordId: 101 });
    expect((await ship.search('carrier', 'd')).map((option) => option.label)).toEqual([
      'DHL',
      'FedEx',
    ]);
    const refund = await client.collection('orders').action('Refund (partial)', { recordId: 101 });
    await expect(refund.execute()).rejects.toBeInstanceOf(ActionFailedError);
    await client.overrideActionPermission('orders', 'Notify', { approvalRequired: true });
    const notify = await client.collection('orders').action('Notify', { recordId: 101 });
    await expect(notify.execute()).rejects.toBeInstanceOf(ActionRequiresApprovalError);
  });

  it('applies permission overrides to the running agent at once', async () => {
    await client.overrideCollectionPermission('orders', { browseEnabled: false });
    const denied = await client
      .collection('orders')
      .list()
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(AgentHttpError);
    expect((denied as AgentHttpError).status).toBe(403);
    await client.clearPermissionOverride();
    expect(await client.collection('orders').count()).toBe(3);
  });
});
