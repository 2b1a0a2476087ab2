import express from 'express';
import request from 'supertest';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { DataSourceCustomizer } from '../customizer/data-source-customizer';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { createAgentRouter } from './create-agent-router';
import { POSTGRES_SHOP_DDL } from './test-fixtures/postgres-shop';
import { bearer, createTestServices } from './test-fixtures/shop-services';

/**
 * The `Forest-Projection` header (agent-http-protocol §6.2): the fields a client asks for on get,
 * list, related list and CSV, taking precedence over `fields[...]`; invalid → 400.
 */
describe('Forest-Projection header on PostgreSQL', () => {
  const db = useTestDatabase('postgres');
  let dataSource: DataSource;
  let app: express.Express;
  const admin = bearer({ permissionLevel: 'admin' });
  const get = (path: string, projection?: string) => {
    const call = request(app).get(path).set('Authorization', admin);
    return projection === undefined ? call : call.set('Forest-Projection', projection);
  };

  beforeAll(async () => {
    await db().knex.raw(POSTGRES_SHOP_DDL);
    dataSource = await new DataSourceCustomizer()
      .addDataSource(createSqlDataSource(db().url))
      .getDataSource();
    app = express();
    app.use(createAgentRouter(createTestServices(dataSource)));
  });

  afterAll(async () => {
    await dataSource?.close?.();
  });

  it('returns only the asked fields (and the primary keys) on list, header over fields[...]', async () => {
    const response = await get(
      '/forest/orders?timezone=UTC&sort=id&fields[orders]=total',
      'reference,customer:full_name',
    ).expect(200);
    expect(response.body.data.map((row: { attributes: unknown }) => row.attributes)).toEqual([
      { id: 1, reference: 'SO-1' },
      { id: 2, reference: 'SO-2' },
      { id: 3, reference: 'SO-3' },
    ]);
    expect(response.body.data[0].relationships.customer.data).toEqual({
      type: 'customers',
      id: '1',
    });
    expect(response.body.included).toEqual([
      expect.objectContaining({
        type: 'customers',
        id: '1',
        attributes: { id: 1, full_name: 'Ada Martin' },
      }),
      expect.objectContaining({
        type: 'customers',
        id: '2',
        attributes: { id: 2, full_name: 'Bob Stone' },
      }),
    ]);
  });

  it('returns only the asked fields on get', async () => {
    const response = await get('/forest/orders/3?timezone=UTC', 'status').expect(200);
    expect(response.body.data.attributes).toEqual({ id: 3, status: 'paid' });
    const all = await get('/forest/orders/3?timezone=UTC').expect(200);
    expect(Object.keys(all.body.data.attributes)).toEqual(
      expect.arrayContaining(['id', 'reference', 'status', 'total', 'quantity', 'paid_at']),
    );
  });

  it('returns only the asked fields of the target on related list', async () => {
    const response = await get(
      '/forest/customers/1/relationships/orders?timezone=UTC&sort=id',
      'reference',
    ).expect(200);
    expect(response.body.data.map((row: { attributes: unknown }) => row.attributes)).toEqual([
      { id: 1, reference: 'SO-1' },
    ]);
  });

  it('uses the header as the CSV columns, in its order', async () => {
    const response = await get(
      '/forest/orders.csv?timezone=UTC&header=Status,Reference&sort=id',
      'status,reference',
    ).expect(200);
    expect(response.text.trim().split('\n')).toEqual([
      'Status,Reference',
      'paid,SO-1',
      'pending,SO-2',
      'paid,SO-3',
    ]);
  });

  it('uses the header as the columns of a related CSV export too', async () => {
    const response = await get(
      '/forest/customers/2/relationships/orders.csv?timezone=UTC&header=Status,Reference&sort=id',
      'status,reference',
    ).expect(200);
    expect(response.text.trim().split('\n')).toEqual(['Status,Reference', 'paid,SO-3']);
  });

  it('answers 400 with a clear message for an invalid header, on every route', async () => {
    const routes = [
      '/forest/orders?timezone=UTC',
      '/forest/orders/1?timezone=UTC',
      '/forest/customers/1/relationships/orders?timezone=UTC',
      '/forest/orders.csv?timezone=UTC&header=X',
      '/forest/customers/1/relationships/orders.csv?timezone=UTC&header=X',
    ];
    for (const route of routes) {
      const response = await get(route, 'reference,colour').expect(400);
      expect(response.body.errors[0]).toMatchObject({
        name: 'ValidationError',
        status: 400,
        detail: expect.stringMatching(/^Invalid Forest-Projection header: .*colour/),
      });
    }
    const toMany = await get('/forest/customers?timezone=UTC', 'orders:reference').expect(400);
    expect(toMany.body.errors[0].detail).toMatch(/^Invalid Forest-Projection header: /);
  });
});
