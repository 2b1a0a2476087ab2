import express from 'express';
import request from 'supertest';

import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { DataSourceCustomizer } from '../customizer/data-source-customizer';
import { generateSchema } from '../schema/schema-generator';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { createAgentRouter } from './create-agent-router';
import { POSTGRES_SHOP_DDL } from './test-fixtures/postgres-shop';
import { bearer, createShopDataSource, createTestServices } from './test-fixtures/shop-services';

/**
 * The answers issue 18 found differing from agent-http-protocol.md, each asserted as the
 * reference gives it, on PostgreSQL through the customizer (search layer, charts).
 */
describe('protocol answers on PostgreSQL through the customizer', () => {
  const db = useTestDatabase('postgres');
  let dataSource: DataSource;
  let services: ReturnType<typeof createTestServices>;
  let app: express.Express;
  const admin = bearer({ permissionLevel: 'admin' });
  const get = (path: string) => request(app).get(path).set('Authorization', admin);

  beforeAll(async () => {
    await db().knex.raw(POSTGRES_SHOP_DDL);
    dataSource = await new DataSourceCustomizer()
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('labels', (labels) => labels.disableSearch())
      .addChart('share', (_context, resultBuilder) => resultBuilder.percentage(42.5))
      .addChart('series', (_context, resultBuilder) =>
        resultBuilder.timeBased('Month', [
          { date: '2025-01-10', value: null },
          { date: '2025-03-10', value: 3 },
        ]),
      )
      .getDataSource();
    services = createTestServices(dataSource);
    app = express();
    app.use(createAgentRouter(services));
  });

  afterAll(async () => {
    await dataSource?.close?.();
  });

  it('finds a uuid that is not RFC 4122 (any 32 hex digits) by search', async () => {
    const response = await get(
      '/forest/products?timezone=UTC&search=9a38c052-50f9-df5b-200b-482880c100f1',
    ).expect(200);
    expect(response.body.data.map((row: { id: string }) => row.id)).toEqual([
      '9a38c052-50f9-df5b-200b-482880c100f1',
    ]);
  });

  it('answers countCurrent 0 (not null) for an empty current period with a previous period', async () => {
    for (const aggregator of ['Count', 'Sum']) {
      const response = await request(app)
        .post('/forest/stats/orders?timezone=UTC')
        .set('Authorization', admin)
        .send({
          type: 'Value',
          aggregator,
          aggregateFieldName: aggregator === 'Sum' ? 'total' : null,
          filter: { field: 'paid_at', operator: 'today', value: null },
        })
        .expect(200);
      expect(response.body.data.attributes.value).toEqual({ countCurrent: 0, countPrevious: 0 });
    }
  });

  it('answers the JSON:API error document for an unknown collection', async () => {
    for (const path of ['/forest/unknown', '/forest/unknown/count', '/forest/unknown/1']) {
      const response = await get(`${path}?timezone=UTC`).expect(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        errors: [
          {
            name: 'NotFoundError',
            detail: expect.stringContaining("'unknown'"),
            status: 404,
          },
        ],
      });
    }
  });

  it('exports collections as searchable by default, and disableSearch makes one not searchable', async () => {
    const schema = await generateSchema(dataSource, services.options);
    const searchable = Object.fromEntries(
      schema.collections.map((collection) => [collection.name, collection.isSearchable]),
    );
    expect(searchable).toEqual({
      customers: true,
      labels: false,
      orders: true,
      orders_products: true,
      products: true,
    });
    const refused = await get('/forest/labels?timezone=UTC&search=gift').expect(400);
    expect(refused.body.errors).toEqual([
      { name: 'ValidationError', detail: 'Collection is not searchable', status: 400 },
    ]);
    await get('/forest/labels?timezone=UTC&search=%20').expect(200);
    const found = await get('/forest/customers?timezone=UTC&search=ada').expect(200);
    expect(found.body.data).toHaveLength(1);

    const memory = await new DataSourceCustomizer()
      .addDataSource(async () => createShopDataSource())
      .getDataSource();
    const memorySchema = await generateSchema(memory, services.options);
    expect(memorySchema.collections.every((collection) => collection.isSearchable)).toBe(true);
  });

  it('answers a percentage chart with the bare number', async () => {
    expect((await get('/forest/_charts/share?timezone=UTC').expect(200)).body).toBe(42.5);
    const wrapped = await request(app)
      .post('/forest/_charts/share?timezone=UTC')
      .set('Authorization', admin)
      .send({})
      .expect(200);
    expect(wrapped.body.data.attributes.value).toBe(42.5);
  });

  it('keeps null values of a time-based chart', async () => {
    expect((await get('/forest/_charts/series?timezone=UTC').expect(200)).body).toEqual([
      { label: 'Jan 25', values: { value: null } },
      { label: 'Feb 25', values: { value: 0 } },
      { label: 'Mar 25', values: { value: 3 } },
    ]);
  });
});
