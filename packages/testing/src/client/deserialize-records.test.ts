import { deserializeDocument } from './deserialize-records';

describe('deserializeDocument', () => {
  it('keeps attribute names and nests linked to-one records from included', () => {
    const records = deserializeDocument({
      data: [
        {
          type: 'orders',
          id: '1',
          attributes: { id: 1, 'address@@@city': 'Lyon' },
          relationships: {
            customer: { data: { type: 'customers', id: '7' } },
            shipment: { data: null },
            payments: {},
          },
        },
      ],
      included: [{ type: 'customers', id: '7', attributes: { id: 7, fullName: 'Ada' } }],
    });
    expect(records).toEqual([
      { id: 1, 'address@@@city': 'Lyon', customer: { id: 7, fullName: 'Ada' }, shipment: null },
    ]);
  });

  it('reads a single resource and a null document', () => {
    expect(
      deserializeDocument({ data: { type: 'orders', id: '1', attributes: { id: 1 } } }),
    ).toEqual([{ id: 1 }]);
    expect(deserializeDocument({ data: null })).toEqual([]);
  });
});
