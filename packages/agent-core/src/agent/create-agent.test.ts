import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createServerSandbox } from '@canopy/testing';
import { ShopDataSource, NamesDataSource } from '../schema/shop-fixture';
import { isAgentError } from './agent-error';
import { createAgent } from './create-agent';

const ENV_SECRET = '3'.repeat(64);

describe('createAgent', () => {
  const saved = { ...process.env };

  afterEach(() => {
    process.env = { ...saved };
  });

  it('validates options at once', () => {
    delete process.env.CANOPY_AUTH_SECRET;
    delete process.env.CANOPY_ENV_SECRET;
    let error: unknown;
    try {
      createAgent({ envSecret: 'nope' });
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error, 'INVALID_AGENT_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain('authSecret: is missing');
    expect((error as Error).message).toContain('envSecret: must be 64 lowercase hexadecimal');
  });

  it('starts with CANOPY_* variables and serves every added data source', async () => {
    const sandbox = await createServerSandbox(0);
    const directory = mkdtempSync(join(tmpdir(), 'canopy-create-agent-'));
    process.env.CANOPY_AUTH_SECRET = 'env-auth-secret';
    process.env.CANOPY_ENV_SECRET = ENV_SECRET;
    process.env.CANOPY_SERVER_URL = sandbox.url;
    const shop = new ShopDataSource();
    const agent = createAgent({ schemaPath: join(directory, 'schema.json'), logger: () => {} })
      .addDataSource(async () => shop)
      .addDataSource(async () => new NamesDataSource(['books']))
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    await request(`http://127.0.0.1:${agent.standaloneServerPort}`).get('/forest/').expect(200);
    expect(sandbox.schema(ENV_SECRET)?.collections.map((collection) => collection.name)).toEqual([
      'books',
      'customers',
      'orders',
    ]);
    await agent.stop();
    expect(shop.closed).toBe(true);
    await sandbox.close();
  });

  it('refuses data sources whose collection names collide, closing what was built', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'canopy-create-agent-'));
    const first = new ShopDataSource();
    const second = new ShopDataSource();
    const agent = createAgent({
      authSecret: 'a',
      envSecret: ENV_SECRET,
      schemaPath: join(directory, 'schema.json'),
      logger: () => {},
    })
      .addDataSource(async () => first)
      .addDataSource(async () => second);
    await expect(agent.generateSchemaOnly()).rejects.toThrow(
      "Collection 'customers' already exists",
    );
    expect(first.closed).toBe(true);
    expect(() => agent.addDataSource('postgres://x' as never)).toThrow(
      /needs a data source factory/,
    );
  });

  it('applies customizations at start and replays them on restart', async () => {
    const sandbox = await createServerSandbox(0);
    const directory = mkdtempSync(join(tmpdir(), 'canopy-create-agent-'));
    let factoryCalls = 0;
    const agent = createAgent({
      authSecret: 'a',
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath: join(directory, 'schema.json'),
      logger: () => {},
    })
      .addDataSource(
        async () => {
          factoryCalls += 1;
          return new ShopDataSource();
        },
        { rename: { customers: 'clients' } },
      )
      .addDataSource(async () => new NamesDataSource(['books', 'logs']))
      .removeCollection('logs')
      .customizeCollection('orders', (orders) =>
        orders
          .addSegment('Big', { field: 'amount', operator: 'In', value: [250, 900] })
          .addAction('Mark as paid', {
            scope: 'Bulk',
            form: [
              { type: 'String', label: 'Reference', isRequired: true },
              { type: 'Number', label: 'Amount', defaultValue: 10 },
            ],
            execute: (_context, resultBuilder) => resultBuilder.success('Paid'),
          })
          .addAction('Ask', {
            scope: 'Global',
            form: (context) => [{ type: 'String', label: `Hello ${context.caller.firstName}` }],
            execute: (_context, resultBuilder) => resultBuilder.success(),
          }),
      );
    await agent.start();
    const schema = JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8'));
    expect(schema.collections.map((collection: { name: string }) => collection.name)).toEqual([
      'books',
      'clients',
      'orders',
    ]);
    const orders = schema.collections[2];
    expect(orders.segments).toEqual([
      { id: 'orders.Big', name: 'Big' },
      { id: 'orders.Late', name: 'Late' },
    ]);
    expect(
      orders.fields.find((field: { field: string }) => field.field === 'customer'),
    ).toMatchObject({ reference: 'clients.id' });
    const byName = Object.fromEntries(
      orders.actions.map((action: { name: string }) => [action.name, action]),
    );
    expect(byName['Mark as paid']).toMatchObject({
      type: 'bulk',
      hooks: { load: false, change: ['changeHook'] },
      fields: [
        { field: 'Reference', label: 'Reference', isRequired: true, type: 'String' },
        { field: 'Amount', label: 'Amount', type: 'Number', defaultValue: 10 },
      ],
    });
    expect(byName.Ask).toMatchObject({ hooks: { load: true }, fields: [{ field: 'Loading...' }] });
    await agent.restart();
    expect(factoryCalls).toBe(2);
    await agent.stop();
    await sandbox.close();
  });
});
