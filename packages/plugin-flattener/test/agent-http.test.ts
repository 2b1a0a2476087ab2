import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Agent,
  type CompositeColumnType,
  createAgent,
  type DataSourceFactory,
  signSessionToken,
} from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { flattenColumn, flattenJsonColumn, flattenRelation } from '../src';
import { makeShop } from './shop';

const AUTH_SECRET = 'flattener-auth-secret';
const ENV_SECRET = '7'.repeat(64);

const db = useTestDatabase('postgres');

/** Where the agent's data lives, and how a test reads what was stored. */
interface Backend {
  factory(): Promise<DataSourceFactory>;
  /** `flattenColumn`'s columnType: none for an object column, the shape for a jsonb column. */
  addressType?: CompositeColumnType;
  storedAddress(customerId: number): Promise<unknown>;
  lastDelivery(): Promise<unknown>;
}

const memory = makeShop();
const inMemory: Backend = {
  factory: async () => async () => memory,
  storedAddress: async (id) => memory.getCollection('customers').records[id - 1]?.address,
  lastDelivery: async () => memory.getCollection('orders').records.at(-1)?.delivery,
};

const postgres: Backend = {
  async factory() {
    await db().knex.raw(`
      CREATE TABLE companies (id serial PRIMARY KEY, name text NOT NULL, country text);
      CREATE TABLE customers (
        id serial PRIMARY KEY, name text NOT NULL, address jsonb,
        company_id integer REFERENCES companies(id)
      );
      CREATE TABLE orders (
        id serial PRIMARY KEY, reference text NOT NULL, delivery jsonb,
        customer_id integer REFERENCES customers(id)
      );
      INSERT INTO companies (name, country) VALUES ('Acme', 'US'), ('Bistro', 'FR');
      INSERT INTO customers (name, address, company_id) VALUES
        ('Ada', '{"city":"Lyon","kind":"home","geo":{"lat":45.76,"lng":4.83}}', 2),
        ('Bob', '{"city":"Boston","kind":"work"}', 1),
        ('Cy', NULL, NULL);
      INSERT INTO orders (reference, delivery, customer_id) VALUES
        ('A-1', '{"carrier":"UPS","address":{"city":"Lyon","zip":"69001"},"weight":2}', 1),
        ('B-2', '{"carrier":"DHL","address":{"city":"Paris","zip":"75001"},"weight":5}', 2),
        ('C-3', '{"carrier":"UPS"}', 3);
    `);
    return createSqlDataSource(db().url);
  },
  addressType: {
    city: 'String',
    kind: { type: 'Enum', enumValues: ['home', 'work'] },
    geo: { lat: 'Number', lng: 'Number' },
  },
  async storedAddress(id) {
    const { rows } = await db().knex.raw('SELECT address FROM customers WHERE id = ?', [id]);
    return rows[0]?.address;
  },
  async lastDelivery() {
    const { rows } = await db().knex.raw('SELECT delivery FROM orders ORDER BY id DESC LIMIT 1');
    return rows[0]?.delivery;
  },
};

/** The three plugins behind the agent's real REST interface (JSON:API), against the sandbox. */
describe.each([
  ['in-memory', inMemory],
  ['PostgreSQL', postgres],
])('the flattener through a started agent (%s)', (_name, backend) => {
  let sandbox: ServerSandbox;
  let agent: Agent;
  let url: string;
  let schemaPath: string;

  beforeAll(async () => {
    const factory = await backend.factory();
    sandbox = await createServerSandbox(0);
    schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-flattener-')), '.canopy-schema.json');
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      logger: () => {},
    })
      .addDataSource(factory)
      .customizeCollection('customers', (customers) =>
        customers.use(flattenColumn, {
          columnName: 'address',
          level: 2,
          ...(backend.addressType ? { columnType: backend.addressType } : {}),
        }),
      )
      .customizeCollection('orders', (orders) =>
        orders
          .use(flattenJsonColumn, {
            columnName: 'delivery',
            columnType: { carrier: 'String', address: { city: 'String', zip: 'String' } },
          })
          .use(flattenRelation, { relationName: 'customer:company', include: ['name'] }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    url = `http://127.0.0.1:${agent.standaloneServerPort}/forest`;
  }, 30_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  });

  const token = () =>
    signSessionToken(
      {
        id: 1,
        email: 'admin@shop.test',
        firstName: 'Admin',
        lastName: 'User',
        team: 'Operations',
        role: 'Admin',
        permissionLevel: 'admin',
        renderingId: 1,
        tags: {},
      },
      AUTH_SECRET,
    );

  async function call(method: string, path: string, body?: unknown) {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${url}${path}${separator}timezone=Europe/Paris`, {
      method,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  it('writes the generated fields to the schema file, the original Json column hidden', () => {
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as {
      collections: { name: string; fields: { field: string; isFilterable?: boolean }[] }[];
    };
    const orders = schema.collections.find((collection) => collection.name === 'orders');
    const names = orders?.fields.map((field) => field.field) ?? [];
    expect(names).toEqual(
      expect.arrayContaining([
        'delivery@@@carrier',
        'delivery@@@address@@@city',
        'customer@@@company@@@name',
      ]),
    );
    expect(names).not.toContain('delivery');
  });

  it('lists, filters and sorts with flattened fields over HTTP', async () => {
    const filters = JSON.stringify({
      field: 'customer@@@company@@@name',
      operator: 'present',
      value: null,
    });
    const { status, body } = await call(
      'GET',
      `/orders?fields[orders]=reference,delivery@@@carrier,customer@@@company@@@name` +
        `&sort=-customer@@@company@@@name&filters=${encodeURIComponent(filters)}`,
    );
    expect(status).toBe(200);
    expect(
      (body.data as { attributes: Record<string, unknown> }[]).map((record) => record.attributes),
    ).toEqual([
      {
        id: 1,
        reference: 'A-1',
        'delivery@@@carrier': 'UPS',
        'customer@@@company@@@name': 'Bistro',
      },
      { id: 2, reference: 'B-2', 'delivery@@@carrier': 'DHL', 'customer@@@company@@@name': 'Acme' },
    ]);
  });

  it('updates one nested key of one record over HTTP, keeping its siblings', async () => {
    const { status, body } = await call('PUT', '/customers/1', {
      data: {
        type: 'customers',
        id: '1',
        attributes: { 'address@@@geo@@@lng': 5 },
      },
    });
    expect(status).toBe(200);
    expect(body.data.attributes).toMatchObject({
      'address@@@city': 'Lyon',
      'address@@@geo@@@lat': 45.76,
      'address@@@geo@@@lng': 5,
    });
    expect(await backend.storedAddress(1)).toEqual({
      city: 'Lyon',
      kind: 'home',
      geo: { lat: 45.76, lng: 5 },
    });
  });

  it('creates a record from flattened attributes over HTTP', async () => {
    const { status, body } = await call('POST', '/orders', {
      data: {
        type: 'orders',
        attributes: { reference: 'F-6', 'delivery@@@address@@@zip': '13001' },
      },
    });
    expect(status).toBe(200);
    expect(body.data.attributes).toMatchObject({ reference: 'F-6' });
    expect(await backend.lastDelivery()).toEqual({ address: { zip: '13001' } });
  });
});
