import express from 'express';
import request from 'supertest';

import { createAgentRouter } from '../create-agent-router';
import { bearer, createTestServices } from '../test-fixtures/shop-services';

const TEAPOT = '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f';
const CUP = '0c0ffee0-1d6e-4a8e-9a51-3f4b2c1d0e9f';

function setup() {
  const services = createTestServices();
  const app = express();
  app.use(createAgentRouter(services));
  const auth = bearer();
  return {
    services,
    get: (path: string) => request(app).get(path).set('Authorization', auth),
    post: (path: string) => request(app).post(path).set('Authorization', auth),
    put: (path: string) => request(app).put(path).set('Authorization', auth),
    del: (path: string) => request(app).delete(path).set('Authorization', auth),
  };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((record) => record.id);

describe('relation routes', () => {
  it('lists and counts one-to-many and many-to-many related records', async () => {
    const { get, services } = setup();
    const payments = await get('/forest/orders/101/relationships/payments?timezone=UTC').expect(
      200,
    );
    expect(ids(payments.body)).toEqual(['1', '2']);
    expect(payments.body.data[0]).toEqual({
      type: 'payments',
      id: '1',
      attributes: { id: 1, amount: 100, orderId: 101 },
      relationships: { order: { data: { type: 'orders', id: '101' } } },
    });
    const count = await get('/forest/orders/101/relationships/payments/count?timezone=UTC').expect(
      200,
    );
    expect(count.body).toEqual({ count: 2 });
    const products = await get(
      '/forest/orders/101/relationships/products?timezone=UTC&fields[products]=label',
    ).expect(200);
    expect(products.body.data).toEqual([
      {
        type: 'products',
        id: TEAPOT,
        attributes: { label: 'Teapot', id: TEAPOT },
        relationships: {},
      },
    ]);
    expect(services.logs.at(-1)).toMatchObject({
      action: 'listRelatedData',
      collectionName: 'products',
    });
  });

  it('answers 404 for an unknown relation and for a to-one relation on to-many routes', async () => {
    const { get } = setup();
    const unknown = await get('/forest/orders/101/relationships/nope?timezone=UTC').expect(404);
    expect(unknown.body.errors[0].detail).toBe("Relation 'nope' does not exist on 'orders'");
    const toOne = await get('/forest/orders/101/relationships/customer?timezone=UTC').expect(404);
    expect(toOne.body.errors[0].detail).toContain('ManyToOne');
  });

  it('associates and dissociates many-to-many targets', async () => {
    const { get, post, del } = setup();
    await post('/forest/orders/101/relationships/products?timezone=UTC')
      .send({
        data: [
          { type: 'products', id: CUP },
          { type: 'products', id: 'ignored' },
        ],
      })
      .expect(204);
    // Without a sort, by primary key: the cup's id sorts before the teapot's.
    expect(ids((await get('/forest/orders/101/relationships/products?timezone=UTC')).body)).toEqual(
      [CUP, TEAPOT],
    );
    await del('/forest/orders/101/relationships/products?timezone=UTC')
      .send({ data: { attributes: { ids: [TEAPOT], all_records: false } } })
      .expect(204);
    expect(ids((await get('/forest/orders/101/relationships/products?timezone=UTC')).body)).toEqual(
      [CUP],
    );
    expect((await get('/forest/products/count?timezone=UTC')).body).toEqual({ count: 2 });
    const empty = await del('/forest/orders/101/relationships/products?timezone=UTC')
      .send({ data: { attributes: { ids: [], all_records: false } } })
      .expect(400);
    expect(empty.body.errors[0].detail).toBe('Expected no empty id list');
  });

  it('dissociates one-to-many targets, or deletes them with ?delete', async () => {
    const { get, del } = setup();
    await del('/forest/orders/101/relationships/payments?timezone=UTC')
      .send({ data: { attributes: { ids: ['1'] } } })
      .expect(204);
    const detached = await get('/forest/payments/1?timezone=UTC').expect(200);
    expect(detached.body.data.attributes.orderId).toBeNull();
    await del('/forest/orders/101/relationships/payments?timezone=UTC&delete=false')
      .send({ data: { attributes: { ids: ['2'] } } })
      .expect(204);
    await get('/forest/payments/2?timezone=UTC').expect(404);
  });

  it('sets and unsets a many-to-one relation', async () => {
    const { get, put } = setup();
    await put('/forest/orders/102/relationships/customer?timezone=UTC')
      .send({ data: { type: 'customers', id: '2' } })
      .expect(204);
    expect((await get('/forest/orders/102?timezone=UTC')).body.data.attributes.customerId).toBe(2);
    await put('/forest/orders/102/relationships/customer?timezone=UTC')
      .send({ data: null })
      .expect(204);
    expect(
      (await get('/forest/orders/102?timezone=UTC')).body.data.attributes.customerId,
    ).toBeNull();
  });

  it('replaces one element of an array column', async () => {
    const { get, put } = setup();
    await put('/forest/orders/101/relationships/tags/1?timezone=UTC')
      .send({ data: { attributes: 'urgent' } })
      .expect(204);
    expect((await get('/forest/orders/101?timezone=UTC')).body.data.attributes.tags).toEqual([
      'priority',
      'urgent',
    ]);
    const tooFar = await put('/forest/orders/101/relationships/tags/5?timezone=UTC')
      .send({ data: { attributes: 'x' } })
      .expect(400);
    expect(tooFar.body.errors[0].detail).toBe("Field 'tags' is too short");
  });

  it('exports related records as CSV', async () => {
    const { get } = setup();
    const response = await get(
      '/forest/orders/101/relationships/payments.csv?timezone=UTC&fields[payments]=id,amount&header=Id,Amount',
    ).expect(200);
    expect(response.text).toBe('Id,Amount\n1,100\n2,20\n');
  });
});
