import { decodeList, decodeOne, encodeRecord, packId } from '../src';

describe('the agent JSON:API decoder', () => {
  it('reads attributes, to-one relations from included, and search matches', () => {
    const [order] = decodeList({
      data: [
        {
          type: 'orders',
          id: '1',
          attributes: { id: 1, 'address@@@city': 'Lyon' },
          relationships: {
            customer: { data: { type: 'customers', id: '7' } },
            carrier: { data: { type: 'carriers', id: '3' } },
            shipment: { data: null },
            payments: { links: { related: { href: '/forest/orders/1/relationships/payments' } } },
          },
        },
      ],
      included: [{ type: 'customers', id: '7', attributes: { id: 7, fullName: 'Ada' } }],
      meta: { decorators: { 0: { id: '1', search: ['address@@@city'] } } },
    });
    expect(order?.values).toEqual({ id: 1, 'address@@@city': 'Lyon' });
    expect(order?.matches).toEqual(['address@@@city']);
    expect(order?.toOne.customer?.values).toEqual({ id: 7, fullName: 'Ada' });
    // Linked but not included: the reference only.
    expect(order?.toOne.carrier).toEqual({
      id: '3',
      type: 'carriers',
      values: {},
      toOne: {},
      matches: [],
    });
    expect(order?.toOne.shipment).toBeNull();
    expect('payments' in (order?.toOne ?? {})).toBe(false);
  });

  it('reads a single record, and none from `data: null`', () => {
    expect(decodeOne({ data: { type: 'orders', id: '2', attributes: { id: 2 } } })?.id).toBe('2');
    expect(decodeOne({ data: null })).toBeNull();
    expect(decodeList({ data: null })).toEqual([]);
  });

  it('stops at a cycle of included records', () => {
    const [person] = decodeList({
      data: [
        { type: 'people', id: '1', relationships: { self: { data: { type: 'people', id: '1' } } } },
      ],
      included: [
        { type: 'people', id: '1', relationships: { self: { data: { type: 'people', id: '1' } } } },
      ],
    });
    let depth = 0;
    for (let at = person; at?.toOne.self; at = at.toOne.self) depth += 1;
    expect(depth).toBe(4);
  });

  it('writes create and update bodies and packs composite ids', () => {
    expect(
      encodeRecord('orders', { total: 3 }, { customer: { type: 'customers', id: '7' } }, '1'),
    ).toEqual({
      data: {
        type: 'orders',
        id: '1',
        attributes: { total: 3 },
        relationships: { customer: { data: { type: 'customers', id: '7' } } },
      },
    });
    expect(encodeRecord('orders', {})).toEqual({ data: { type: 'orders', attributes: {} } });
    expect(packId(['a', 2])).toBe('a|2');
  });
});
