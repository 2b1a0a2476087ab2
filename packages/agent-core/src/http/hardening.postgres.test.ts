import type express from 'express';
import request from 'supertest';

import type { SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { bearer } from './test-fixtures/shop-services';
import { openPostgresShop } from './test-fixtures/postgres-shop';

/**
 * The JSON text of a leaf nested in `branches` levels of `and` branches of two conditions (built
 * as text: `JSON.stringify` itself overflows on thousands of levels).
 */
function nestedFilter(branches: number): string {
  return (
    '{"aggregator":"and","conditions":['.repeat(branches) +
    '{"field":"id","operator":"equal","value":1}' +
    ',{"field":"id","operator":"present","value":null}]}'.repeat(branches)
  );
}

/**
 * Issue 18 findings on PostgreSQL: hostile input is a 4xx that names the problem (never a 500
 * from a stack overflow or a driver "out of range"), and sloppy input is refused, not guessed.
 */
describe('hostile and sloppy input on PostgreSQL', () => {
  const db = useTestDatabase('postgres');
  let dataSource: SqlDataSource;
  let app: express.Express;
  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(app)[method](path).set('Authorization', bearer());
  /** A chart request as an admin (no chart permission needed), with a raw JSON body. */
  const chart = (collection: string, body: string) =>
    request(app)
      .post(`/forest/stats/${collection}?timezone=UTC`)
      .set('Authorization', bearer({ permissionLevel: 'admin' }))
      .set('Content-Type', 'application/json')
      .send(body);
  const detail = (response: request.Response) =>
    (response.body as { errors: { detail: string }[] }).errors[0]?.detail;

  beforeAll(async () => {
    ({ dataSource, app } = await openPostgresShop(db().url, db().knex));
  });

  afterAll(async () => {
    await dataSource?.close();
  });

  describe('deep and large condition trees', () => {
    const chartBody = (filter: string) =>
      `{"type":"Value","aggregator":"Count","filter":${filter}}`;

    it('refuses a chart filter nested thousands of levels deep (700 KB) with a 400 naming the limit', async () => {
      const body = chartBody(nestedFilter(9000));
      expect(body.length).toBeGreaterThan(700_000);
      const response = await chart('orders', body).expect(400);
      expect(response.body.errors[0]).toMatchObject({ name: 'ValidationError', status: 400 });
      expect(detail(response)).toBe(
        'the request body is nested deeper than 128 levels of objects and arrays',
      );
    });

    it('refuses a filter of 32 nested branches, in the query, a chart or as a JSON string', async () => {
      const limit =
        'Invalid filters (the condition tree is nested deeper than 64 levels of objects and arrays)';
      const list = await call(
        'get',
        `/forest/orders?timezone=UTC&filters=${encodeURIComponent(nestedFilter(32))}`,
      ).expect(400);
      expect(detail(list)).toBe(limit);
      expect(detail(await chart('orders', chartBody(nestedFilter(40))).expect(400))).toBe(limit);
      const asText = chartBody(JSON.stringify(nestedFilter(20_000)));
      expect(detail(await chart('orders', asText).expect(400))).toBe(limit);
    });

    it('answers a filter of 31 nested branches and refuses one with too many conditions', async () => {
      const ok = await call(
        'get',
        `/forest/orders/count?timezone=UTC&filters=${encodeURIComponent(nestedFilter(31))}`,
      ).expect(200);
      expect(ok.body).toEqual({ count: 1 });
      const value = await chart('orders', chartBody(nestedFilter(31))).expect(200);
      expect(value.body.data.attributes.value).toEqual({ countCurrent: 1 });
      const wide = JSON.stringify({
        aggregator: 'or',
        conditions: Array.from({ length: 10_001 }, (_, index) => ({
          field: 'id',
          operator: 'equal',
          value: index,
        })),
      });
      const response = await chart('orders', chartBody(wide)).expect(400);
      expect(detail(response)).toBe(
        'Invalid filters (the condition tree is too large: more than 10000 objects and arrays)',
      );
    });
  });

  describe('ids parsed per primary-key type before any SQL', () => {
    it.each([
      [
        '/forest/customers/2147483648',
        '\'customers\' ids ("id") range from -2147483648 to 2147483647',
      ],
      ['/forest/customers/-2147483649', 'range from -2147483648 to 2147483647'],
      ['/forest/labels/32768', 'range from -32768 to 32767'],
      [
        '/forest/orders/9223372036854775808',
        'range from -9223372036854775808 to 9223372036854775807',
      ],
      ['/forest/orders/9999999999999999999999/relationships/products', 'range from'],
      ['/forest/orders/9999999999999999999999/relationships/products/count', 'range from'],
    ])('GET %s is a 404 that says no record can have that id', async (path, message) => {
      const response = await call('get', `${path}?timezone=UTC`).expect(404);
      expect(response.body.errors[0].name).toBe('NotFoundError');
      expect(detail(response)).toContain(message);
    });

    it('reads ids at the edge of the range and beyond 2^53 without losing digits', async () => {
      await call('get', '/forest/customers/2147483647?timezone=UTC').expect(404);
      await call('get', '/forest/orders/9223372036854775807?timezone=UTC').expect(404);
      await dataSource
        .getCollection('orders')
        .create({ timezone: 'UTC' } as never, [
          { id: '9007199254740993', reference: 'SO-BIG', total: 1 },
        ]);
      const big = await call('get', '/forest/orders/9007199254740993?timezone=UTC').expect(200);
      expect(big.body.data.id).toBe('9007199254740993');
      await call('get', '/forest/orders/9007199254740992?timezone=UTC').expect(404);
      await call('delete', '/forest/orders/9007199254740993?timezone=UTC').expect(204);
    });

    it('answers 404 to writes on ids out of range: update, delete, associate, dissociate', async () => {
      await call('put', '/forest/customers/2147483648?timezone=UTC')
        .send({ data: { type: 'customers', attributes: { full_name: 'X' } } })
        .expect(404);
      await call('delete', '/forest/customers/2147483648?timezone=UTC').expect(404);
      await call(
        'post',
        '/forest/orders/9999999999999999999999/relationships/products?timezone=UTC',
      )
        .send({ data: [{ type: 'products', id: '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f' }] })
        .expect(404);
      await call(
        'delete',
        '/forest/orders/9999999999999999999999/relationships/products?timezone=UTC',
      )
        .send({ data: [{ type: 'products', id: '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f' }] })
        .expect(404);
      await call('post', '/forest/customers/1/relationships/orders?timezone=UTC')
        .send({ data: [{ type: 'orders', id: '99999999999999999999' }] })
        .expect(404);
      await call('delete', '/forest/customers/1/relationships/orders?timezone=UTC')
        .send({ data: [{ type: 'orders', id: '99999999999999999999' }] })
        .expect(404);
      expect((await call('get', '/forest/orders/count?timezone=UTC')).body).toEqual({ count: 3 });
    });

    it.each(['%20999999990', '1e3', '0x10', '007', '1.5', '-0', '12abc', '+1'])(
      'refuses the malformed integer id %s with a 400 that names it',
      async (id) => {
        for (const path of [
          `/forest/customers/${id}`,
          `/forest/orders/${id}/relationships/products`,
        ]) {
          const response = await call('get', `${path}?timezone=UTC`).expect(400);
          expect(detail(response)).toContain('The given value has a wrong type for "id"');
        }
        await call('delete', `/forest/customers/${id}?timezone=UTC`).expect(400);
      },
    );

    it('refuses a malformed uuid id and accepts any 32-hex uuid', async () => {
      const bad = await call('get', '/forest/products/not-a-uuid?timezone=UTC').expect(400);
      expect(detail(bad)).toContain('The given value has a wrong type for "id"');
      const desk = await call(
        'get',
        '/forest/products/9a38c052-50f9-df5b-200b-482880c100f1?timezone=UTC',
      ).expect(200);
      expect(desk.body.data.attributes.name).toBe('Desk');
    });
  });

  describe('values that do not fit the operator or the field', () => {
    it.each([
      [{ field: 'quantity', operator: 'in', value: 'abc' }, 'Expects Number'],
      [{ field: 'quantity', operator: 'in', value: '1,x' }, 'Expects Number'],
      [{ field: 'quantity', operator: 'equal' }, 'operator \'Equal\' on "quantity" needs a value'],
      [
        { field: 'reference', operator: 'contains' },
        'operator \'Contains\' on "reference" needs a value',
      ],
      [{ field: 'quantity', operator: 'greater_than', value: null }, 'needs a value, got null'],
      [{ field: 'quantity', operator: 'equal', value: true }, 'Expects Number'],
      [{ field: 'quantity', operator: 'equal', value: '' }, 'Expects Number'],
      [
        { field: 'quantity', operator: 'equal', value: 2147483648 },
        'out of range for "orders.quantity"',
      ],
      [{ field: 'quantity', operator: 'equal', value: 1.5 }, 'out of range for "orders.quantity"'],
      [
        { field: 'id', operator: 'in', value: [1, '99999999999999999999'] },
        'out of range for "orders.id"',
      ],
      [
        { field: 'customer:id', operator: 'equal', value: 2147483648 },
        'out of range for "customers.id"',
      ],
      [{ field: 'reference', operator: 'equal', value: { a: 1 } }, 'Expects String'],
      [{ field: 'paid_at', operator: 'previous_x_days', value: 'abc' }, 'expects a number'],
    ])('refuses %j with a 400 (%s)', async (filter, message) => {
      const filters = encodeURIComponent(JSON.stringify(filter));
      const response = await call('get', `/forest/orders?timezone=UTC&filters=${filters}`).expect(
        400,
      );
      expect(detail(response)).toContain('Invalid filters (');
      expect(detail(response)).toContain(message);
    });

    it('still casts unambiguous texts: numbers, comma lists and equal null', async () => {
      const count = async (filter: unknown) =>
        (
          await call(
            'get',
            `/forest/orders/count?timezone=UTC&filters=${encodeURIComponent(JSON.stringify(filter))}`,
          ).expect(200)
        ).body.count;
      expect(await count({ field: 'quantity', operator: 'equal', value: '2' })).toBe(1);
      expect(await count({ field: 'quantity', operator: 'in', value: '1, 3' })).toBe(2);
      expect(await count({ field: 'customer_id', operator: 'equal', value: null })).toBe(1);
    });

    it.each([
      'fields[orders]=,,,',
      'fields[orders]=reference,,status',
      'fields[orders]=customer&fields[customer]=,',
    ])('refuses the projection %s', async (fields) => {
      const response = await call('get', `/forest/orders?timezone=UTC&${fields}`).expect(400);
      expect(detail(response)).toMatch(/^Invalid projection: empty field name in 'fields\[/);
    });

    it('refuses a leaderboard limit out of bounds and accepts one within', async () => {
      const leaderboard = (limit: unknown) =>
        chart(
          'customers',
          JSON.stringify({
            type: 'Leaderboard',
            aggregator: 'Count',
            labelFieldName: 'full_name',
            relationshipFieldName: 'orders',
            limit,
          }),
        );
      for (const limit of [1_000_000_000_000, 0, -1, 1.5, 'ten']) {
        const response = await leaderboard(limit).expect(400);
        expect(detail(response)).toBe(
          `Invalid leaderboard limit ${JSON.stringify(limit)}: expected an integer from 1 to 10000`,
        );
      }
      const ok = await leaderboard(1).expect(200);
      expect(ok.body.data.attributes.value).toHaveLength(1);
    });
  });

  describe('associating', () => {
    it('answers 404 for a target that does not exist, and links one that does', async () => {
      const missing = await call('post', '/forest/orders/2/relationships/products?timezone=UTC')
        .send({ data: [{ type: 'products', id: '00000000-0000-0000-0000-000000000000' }] })
        .expect(404);
      expect(detail(missing)).toBe(
        "Record does not exists ('products' 00000000-0000-0000-0000-000000000000)",
      );
      await call('post', '/forest/customers/1/relationships/orders?timezone=UTC')
        .send({ data: [{ type: 'orders', id: '77' }] })
        .expect(404);
      await call('post', '/forest/orders/2/relationships/products?timezone=UTC')
        .send({ data: [{ type: 'products', id: '9a38c052-50f9-df5b-200b-482880c100f1' }] })
        .expect(204);
      const linked = await call(
        'get',
        '/forest/orders/2/relationships/products?timezone=UTC',
      ).expect(200);
      expect(linked.body.data.map((row: { id: string }) => row.id)).toEqual([
        '9a38c052-50f9-df5b-200b-482880c100f1',
      ]);
    });
  });
});
