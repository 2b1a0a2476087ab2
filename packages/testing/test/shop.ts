import { createInMemoryDataSource, type DataSourceFactory } from '@canopy/agent-core';

/** A small in-memory shop: customers and their orders. */
export function shopDataSource(): DataSourceFactory {
  return createInMemoryDataSource({
    customers: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        fullName: { type: 'Column', columnType: 'String', isSortable: true },
      },
      records: [
        { id: 1, fullName: 'Ada Martin' },
        { id: 2, fullName: 'Alan Dupont' },
      ],
    },
    orders: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        reference: { type: 'Column', columnType: 'String', isSortable: true },
        status: { type: 'Column', columnType: 'Enum', enumValues: ['pending', 'paid'] },
        customerId: { type: 'Column', columnType: 'Number' },
        customer: {
          type: 'ManyToOne',
          foreignCollection: 'customers',
          foreignKey: 'customerId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        { id: 101, reference: 'SO-0101', status: 'paid', customerId: 1 },
        { id: 102, reference: 'SO-0102', status: 'pending', customerId: 2 },
      ],
    },
  });
}
