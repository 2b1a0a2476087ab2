import express from 'express';
import request from 'supertest';

import { openSqlDataSource, type SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/** The record routes on PostgreSQL through datasource-sql, with the exact JSON:API shapes. */
describe('routes on PostgreSQL', () => {
  const db = useTestDatabase('postgres');
  let dataSource: SqlDataSource;
  let services: ReturnType<typeof createTestServices>;
  let app: express.Express;
  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(app)[method](path).set('Authorization', bearer());

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE customers (id serial PRIMARY KEY, full_name text NOT NULL, region text NOT NULL);
      CREATE TABLE orders (
        id serial PRIMARY KEY,
        reference text NOT NULL,
        total numeric(10,2) NOT NULL,
        paid_at timestamptz,
        customer_id integer REFERENCES customers(id));
      CREATE TABLE payments (id serial PRIMARY KEY, amount integer NOT NULL, order_id integer REFERENCES orders(id));
      INSERT INTO customers (full_name, region) VALUES ('Ada Martin', 'EU'), ('Bob Stone', 'US');
      INSERT INTO orders (reference, total, paid_at, customer_id) VALUES
        ('SO-1', 120, '2025-11-02T09:15:00Z', 1), ('SO-2', 48.5, NULL, NULL), ('SO-3', 15, NULL, 2);
      INSERT INTO payments (amount, order_id) VALUES (100, 1), (20, 1), (48, 2);
    `);
    dataSource = await openSqlDataSource(db().url);
    services = createTestServices(dataSource);
    app = express();
    app.use(createAgentRouter(services));
  });

  afterAll(async () => {
    await dataSource?.close();
  });

  it('lists with a filter, a sort, a page and a many-to-one field', async () => {
    const filters = encodeURIComponent('{"field":"total","operator":"greater_than","value":"20"}');
    const response = await call(
      'get',
      `/forest/orders?timezone=Europe/Paris&filters=${filters}&sort=-id&page[size]=15&fields[orders]=reference,total,customer&fields[customer]=full_name`,
    ).expect(200);
    expect(response.body).toEqual({
      jsonapi: { version: '1.0' },
      data: [
        {
          type: 'orders',
          id: '2',
          attributes: { reference: 'SO-2', total: 48.5, id: 2 },
          relationships: {
            customer: { data: null },
            payments: { links: { related: { href: '/forest/orders/2/relationships/payments' } } },
          },
        },
        {
          type: 'orders',
          id: '1',
          attributes: { reference: 'SO-1', total: 120, id: 1 },
          relationships: {
            customer: { data: { type: 'customers', id: '1' } },
            payments: { links: { related: { href: '/forest/orders/1/relationships/payments' } } },
          },
        },
      ],
      included: [
        {
          type: 'customers',
          id: '1',
          attributes: { full_name: 'Ada Martin', id: 1 },
          relationships: {
            orders: { links: { related: { href: '/forest/customers/1/relationships/orders' } } },
          },
        },
      ],
    });
  });

  it('counts, gets one with dates in UTC, and answers 404 for a missing record', async () => {
    expect((await call('get', '/forest/orders/count?timezone=UTC').expect(200)).body).toEqual({
      count: 3,
    });
    const one = await call('get', '/forest/orders/1?timezone=UTC').expect(200);
    expect(one.body.data.attributes).toEqual({
      id: 1,
      reference: 'SO-1',
      total: 120,
      paid_at: '2025-11-02T09:15:00.000Z',
      customer_id: 1,
    });
    await call('get', '/forest/orders/99?timezone=UTC').expect(404);
  });

  it('creates, updates and deletes rows', async () => {
    const created = await call('post', '/forest/orders?timezone=UTC')
      .send({
        data: {
          type: 'orders',
          attributes: { reference: 'SO-4', total: 9.9 },
          relationships: { customer: { data: { type: 'customers', id: '2' } } },
        },
      })
      .expect(200);
    expect(created.body.data).toMatchObject({
      type: 'orders',
      id: '4',
      attributes: { reference: 'SO-4', customer_id: 2 },
    });
    const updated = await call('put', '/forest/orders/4?timezone=UTC')
      .send({ data: { type: 'orders', id: '4', attributes: { reference: 'SO-4b' } } })
      .expect(200);
    expect(updated.body.data.attributes.reference).toBe('SO-4b');
    const bad = await call('put', '/forest/orders/4?timezone=UTC')
      .send({ data: { type: 'orders', attributes: { total: 'lots' } } })
      .expect(400);
    expect(bad.body.errors[0].name).toBe('ValidationError');
    await call('delete', '/forest/orders/4?timezone=UTC').expect(204);
    expect((await call('get', '/forest/orders/count?timezone=UTC')).body).toEqual({ count: 3 });
  });

  it('lists related rows and streams a CSV export', async () => {
    const related = await call(
      'get',
      '/forest/orders/1/relationships/payments?timezone=UTC&sort=id',
    ).expect(200);
    expect(related.body.data.map((row: { id: string }) => row.id)).toEqual(['1', '2']);
    const csv = await call(
      'get',
      '/forest/orders.csv?timezone=UTC&fields[orders]=reference,total,customer&fields[customer]=full_name&header=Reference,Total,Customer',
    ).expect(200);
    expect(csv.text).toBe(
      'Reference,Total,Customer\nSO-1,120,Ada Martin\nSO-2,48.5,\nSO-3,15,Bob Stone\n',
    );
  });

  it('applies a scope with the user context on PostgreSQL', async () => {
    services.permissions.rendering = {
      team: {},
      collections: {
        customers: {
          scope: { field: 'region', operator: 'Equal', value: '{{currentUser.tags.region}}' },
          segments: [],
        },
      },
      stats: [],
    };
    try {
      const list = await call('get', '/forest/customers?timezone=UTC').expect(200);
      expect(list.body.data.map((row: { id: string }) => row.id)).toEqual(['1']);
      const chart = await request(app)
        .post('/forest/stats/customers?timezone=UTC')
        .set('Authorization', bearer({ permissionLevel: 'editor' }))
        .send({ type: 'Value', aggregator: 'Count' })
        .expect(200);
      expect(chart.body.data.attributes.value).toEqual({ countCurrent: 1 });
    } finally {
      services.permissions.rendering = { team: {}, collections: {}, stats: [] };
    }
  });
});
