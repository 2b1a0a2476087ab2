import express from 'express';
import request from 'supertest';

import { InMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import { createAgentRouter } from '../create-agent-router';
import { bearer, createTestServices } from '../test-fixtures/shop-services';

function setup() {
  const services = createTestServices();
  const app = express();
  app.use(createAgentRouter(services));
  const get = (path: string) => request(app).get(path).set('Authorization', bearer());
  return { services, app, get };
}

const link = (collection: string, id: string, relation: string) => ({
  links: { related: { href: `/forest/${collection}/${id}/relationships/${relation}` } },
});

describe('record routes', () => {
  it('lists records as a JSON:API document with included to-one targets', async () => {
    const { get, services } = setup();
    const response = await get(
      '/forest/orders?timezone=Europe/Paris&fields[orders]=reference,total,customer&fields[customer]=fullName&sort=-id&page[size]=2',
    ).expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-forest-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      jsonapi: { version: '1.0' },
      data: [
        {
          type: 'orders',
          id: '103',
          attributes: { reference: 'SO-0103', total: 15, id: 103 },
          relationships: {
            customer: { data: { type: 'customers', id: '2' } },
            payments: link('orders', '103', 'payments'),
            products: link('orders', '103', 'products'),
          },
        },
        {
          type: 'orders',
          id: '102',
          attributes: { reference: 'SO-0102', total: 48.5, id: 102 },
          relationships: {
            customer: { data: null },
            payments: link('orders', '102', 'payments'),
            products: link('orders', '102', 'products'),
          },
        },
      ],
      included: [
        {
          type: 'customers',
          id: '2',
          attributes: { fullName: 'Bob Stone', id: 2 },
          relationships: { orders: link('customers', '2', 'orders') },
        },
      ],
    });
    expect(services.logs).toEqual([
      expect.objectContaining({
        action: 'index',
        type: 'read',
        userId: 1,
        collectionName: 'orders',
      }),
    ]);
  });

  it('filters with snake_case operators and casts values', async () => {
    const { get } = setup();
    const filters = JSON.stringify({
      aggregator: 'and',
      conditions: [
        { field: 'total', operator: 'greater_than', value: '20' },
        { field: 'customer:region', operator: 'in', value: 'EU, US' },
      ],
    });
    const response = await get(
      `/forest/orders?timezone=UTC&filters=${encodeURIComponent(filters)}`,
    ).expect(200);
    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(['101']);
  });

  it.each([
    ['missing timezone', '/forest/orders', 'Missing timezone'],
    ['bad timezone', '/forest/orders?timezone=Mars/Olympus', 'Invalid timezone: "Mars/Olympus"'],
    ['invalid JSON filters', '/forest/orders?timezone=UTC&filters={', 'Invalid filters ('],
    [
      'unsupported operator',
      `/forest/orders?timezone=UTC&filters=${encodeURIComponent('{"field":"tags","operator":"greater_than","value":1}')}`,
      'Invalid filters (',
    ],
    ['unknown sort', '/forest/orders?timezone=UTC&sort=nope', 'Invalid sort: nope'],
    [
      'page size 0',
      '/forest/orders?timezone=UTC&page[size]=0',
      'Invalid pagination [limit: 0, skip: undefined]',
    ],
    ['huge page size', '/forest/orders?timezone=UTC&page[size]=99999999', 'Invalid pagination'],
    [
      'unknown projected field',
      '/forest/orders?timezone=UTC&fields[orders]=nope',
      'Invalid projection: ',
    ],
    [
      'relation without sub-fields',
      '/forest/orders?timezone=UTC&fields[orders]=customer',
      'Invalid projection: ',
    ],
    ['unknown segment', '/forest/orders?timezone=UTC&segment=late', 'Invalid segment: "late"'],
    [
      'search on a non-searchable collection',
      '/forest/orders?timezone=UTC&search=ada',
      'does not support search natively',
    ],
    [
      'malformed id',
      '/forest/orders/abc?timezone=UTC',
      'The given value has a wrong type for "id": abc',
    ],
    [
      'composite id with too many parts',
      '/forest/orders/1|2?timezone=UTC',
      'Expected 1 values, found 2',
    ],
  ])('answers 400 for %s', async (_label, path, detail) => {
    const { get } = setup();
    const response = await get(path).expect(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({ name: 'ValidationError', status: 400 });
    expect(response.body.errors[0].detail).toContain(detail);
  });

  it('answers 404 for an unknown collection and for a missing record', async () => {
    const { get } = setup();
    const unknown = await get('/forest/unicorns?timezone=UTC').expect(404);
    expect(unknown.body.errors[0].detail).toBe("Collection 'unicorns' does not exist");
    const missing = await get('/forest/orders/999?timezone=UTC').expect(404);
    expect(missing.body).toEqual({
      errors: [{ name: 'NotFoundError', detail: 'Record does not exists', status: 404 }],
    });
  });

  it('counts, and gets one record with the default projection', async () => {
    const { get } = setup();
    const count = await get('/forest/orders/count?timezone=UTC').expect(200);
    expect(count.body).toEqual({ count: 3 });
    const one = await get('/forest/orders/101?timezone=UTC').expect(200);
    expect(one.body.data).toEqual({
      type: 'orders',
      id: '101',
      attributes: {
        id: 101,
        reference: 'SO-0101',
        status: 'paid',
        total: 120,
        paidAt: '2025-11-02T09:15:00.000Z',
        tags: ['priority', 'gift'],
        notes: { gift: true },
        region: 'EU',
        customerId: 1,
      },
      relationships: {
        customer: { data: { type: 'customers', id: '1' } },
        payments: link('orders', '101', 'payments'),
        products: link('orders', '101', 'products'),
      },
    });
    expect(one.body.included[0]).toEqual({
      type: 'customers',
      id: '1',
      attributes: { id: 1, fullName: 'Ada Martin', email: 'ada@shop.test', region: 'EU' },
      relationships: { orders: link('customers', '1', 'orders') },
    });
  });

  it('creates a record linked to a customer and answers 200 with primary keys only for it', async () => {
    const { app } = setup();
    const response = await request(app)
      .post('/forest/orders?timezone=UTC')
      .set('Authorization', bearer())
      .send({
        data: {
          type: 'orders',
          attributes: { reference: 'SO-0104', status: 'pending', total: 15.9, tags: [] },
          relationships: { customer: { data: { type: 'customers', id: '2' } } },
        },
      })
      .expect(200);
    expect(response.body.data).toMatchObject({
      type: 'orders',
      id: '104',
      attributes: { reference: 'SO-0104', customerId: 2, id: 104 },
      relationships: { customer: { data: { type: 'customers', id: '2' } } },
    });
    expect(response.body.included).toEqual([
      {
        type: 'customers',
        id: '2',
        attributes: { id: 2 },
        relationships: { orders: link('customers', '2', 'orders') },
      },
    ]);
  });

  it('refuses a create with a bad value and writes nothing', async () => {
    const { app, get } = setup();
    const response = await request(app)
      .post('/forest/orders?timezone=UTC')
      .set('Authorization', bearer())
      .send({ data: { type: 'orders', attributes: { reference: 'X', status: 'refunded' } } })
      .expect(400);
    expect(response.body.errors[0].detail).toContain('refunded');
    expect((await get('/forest/orders/count?timezone=UTC')).body).toEqual({ count: 3 });
  });

  it('updates, ignoring relationships, and re-reads the record', async () => {
    const { app } = setup();
    const response = await request(app)
      .put('/forest/orders/101?timezone=UTC')
      .set('Authorization', bearer())
      .send({
        data: {
          type: 'orders',
          id: '101',
          attributes: { status: 'shipped' },
          relationships: { customer: { data: { type: 'customers', id: '2' } } },
        },
      })
      .expect(200);
    expect(response.body.data.attributes).toMatchObject({ status: 'shipped', customerId: 1 });
    const empty = await request(app)
      .put('/forest/orders/101?timezone=UTC')
      .set('Authorization', bearer())
      .send({ data: { type: 'orders', attributes: {} } })
      .expect(400);
    expect(empty.body.errors[0].detail).toContain('The record data is empty');
  });

  it('deletes one record and a selection', async () => {
    const { app, get } = setup();
    await request(app)
      .delete('/forest/orders/101?timezone=UTC')
      .set('Authorization', bearer())
      .expect(204);
    await request(app)
      .delete('/forest/orders?timezone=UTC')
      .set('Authorization', bearer())
      .send({
        data: {
          attributes: {
            ids: [],
            all_records: true,
            all_records_ids_excluded: ['103'],
            all_records_subset_query: {
              filters: '{"field":"status","operator":"equal","value":"pending"}',
            },
          },
        },
      })
      .expect(204);
    const left = await get('/forest/orders?timezone=UTC').expect(200);
    expect(left.body.data.map((r: { id: string }) => r.id)).toEqual(['103']);
    const noIds = await request(app)
      .delete('/forest/orders?timezone=UTC')
      .set('Authorization', bearer())
      .send({ data: { attributes: {} } })
      .expect(400);
    expect(noIds.body.errors[0].detail).toContain('Expected array, received: undefined');
  });

  it('streams a CSV export with the requested columns', async () => {
    const { get } = setup();
    const response = await get(
      '/forest/orders.csv?timezone=UTC&fields[orders]=reference,total,tags,customer&fields[customer]=fullName&header=Reference,Total,Tags,Customer&filename=orders.csv',
    ).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('filename="orders.csv"');
    expect(response.text).toBe(
      'Reference,Total,Tags,Customer\nSO-0101,120,"priority,gift",Ada Martin\nSO-0102,48.5,,\nSO-0103,15,,Bob Stone\n',
    );
  });
});

describe('CSV export cells', () => {
  it('neutralizes text a spreadsheet would read as a formula, and leaves numbers alone', async () => {
    const labels = [
      '=HYPERLINK("https://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tTab',
      '\rCR',
      'a = b',
    ];
    const dataSource = new InMemoryDataSource({
      cells: {
        fields: {
          id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
          label: { type: 'Column', columnType: 'String' },
          amount: { type: 'Column', columnType: 'Number' },
          active: { type: 'Column', columnType: 'Boolean' },
        },
        records: labels.map((label, index) => ({
          id: index + 1,
          label,
          amount: -5 - index,
          active: index === 0,
        })),
      },
    });
    const app = express();
    app.use(createAgentRouter(createTestServices(dataSource)));
    const response = await request(app)
      .get(
        '/forest/cells.csv?timezone=UTC&fields[cells]=id,label,amount,active&header=id,=label,amount,active',
      )
      .set('Authorization', bearer())
      .expect(200);
    expect(response.text).toBe(
      [
        `id,"'=label",amount,active`,
        `1,"'=HYPERLINK(""https://evil.example"",""x"")",-5,true`,
        `2,"'+1+1",-6,false`,
        `3,"'-2+3",-7,false`,
        `4,"'@SUM(A1)",-8,false`,
        `5,"'\tTab",-9,false`,
        `6,"'\rCR",-10,false`,
        `7,a = b,-11,false`,
        '',
      ].join('\n'),
    );
  });
});

describe('CSV export in batches', () => {
  it('reads every row in key order across batches, and refuses a bad query before streaming', async () => {
    const dataSource = new InMemoryDataSource({
      rows: {
        fields: {
          id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
          label: { type: 'Column', columnType: 'String' },
        },
        records: Array.from({ length: 2500 }, (_, index) => ({
          id: 2500 - index,
          label: `r${2500 - index}`,
        })),
      },
    });
    const app = express();
    app.use(createAgentRouter(createTestServices(dataSource)));
    const response = await request(app)
      .get('/forest/rows.csv?timezone=UTC&fields[rows]=id,label&header=id,label')
      .set('Authorization', bearer())
      .expect(200);
    const lines = response.text.trimEnd().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines.slice(0, 3)).toEqual(['id,label', '1,r1', '2,r2']);
    expect(lines.at(-1)).toBe('2500,r2500');
    const refused = await request(app)
      .get('/forest/rows.csv?timezone=UTC&header=id&search=r1')
      .set('Authorization', bearer())
      .expect(400);
    expect(refused.body.errors[0].name).toBe('ValidationError');
  });
});
