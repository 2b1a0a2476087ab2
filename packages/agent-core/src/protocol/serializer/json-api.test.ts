import { createShopDataSource } from '../../http/test-fixtures/shop-services';
import { serializeRecords } from './json-api';

describe('serializeRecords', () => {
  const orders = createShopDataSource().getCollection('orders');

  it('marks the attributes that contain the search text, keyed by string integers', () => {
    const document = serializeRecords(
      orders,
      [
        { id: 101, reference: 'SO-0101', notes: null },
        { id: 102, reference: 'SO-0102', notes: { text: 'call before' } },
        { id: 7, reference: 'X', notes: null },
      ],
      '01',
    );
    expect(document.meta).toEqual({
      decorators: {
        '0': { id: '101', search: ['id', 'reference'] },
        '1': { id: '102', search: ['reference'] },
      },
    });
  });

  it('omits meta when nothing matches, and encodes composite ids and link paths', () => {
    const document = serializeRecords(orders, [{ id: 101, reference: 'SO' }], 'zzz');
    expect(document.meta).toBeUndefined();
    expect(document.data).toEqual([
      expect.objectContaining({
        id: '101',
        relationships: expect.objectContaining({
          payments: { links: { related: { href: '/forest/orders/101/relationships/payments' } } },
        }),
      }),
    ]);
  });
});
