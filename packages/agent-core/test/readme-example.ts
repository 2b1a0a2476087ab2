import {
  type Caller,
  ConditionTreeLeaf,
  DataSourceCustomizer,
  Filter,
  PaginatedFilter,
  Projection,
  createInMemoryDataSource,
} from '@canopy/agent-core';

export async function main(caller: Caller) {
  const customizer = new DataSourceCustomizer()
    .addDataSource(
      createInMemoryDataSource({
        customers: {
          fields: {
            id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
            firstName: { type: 'Column', columnType: 'String' },
            lastName: { type: 'Column', columnType: 'String' },
          },
          records: [
            { id: 1, firstName: 'Ada', lastName: 'Lovelace' },
            { id: 2, firstName: 'Alan', lastName: 'Turing' },
          ],
        },
        orders: {
          fields: {
            id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
            amount: { type: 'Column', columnType: 'Number' },
            status: { type: 'Column', columnType: 'Enum', enumValues: ['pending', 'paid'] },
            customerId: { type: 'Column', columnType: 'Number' },
          },
          records: [
            { id: 1, amount: 250, status: 'pending', customerId: 1 },
            { id: 2, amount: 40, status: 'pending', customerId: 2 },
            { id: 3, amount: 900, status: 'paid', customerId: 2 },
          ],
        },
      }),
    )
    .customizeCollection('customers', (customers) =>
      customers
        .addField('fullName', {
          columnType: 'String',
          dependencies: ['firstName', 'lastName'],
          getValues: (records) => records.map((r) => `${r.firstName} ${r.lastName}`),
        })
        .emulateFieldFiltering('fullName'),
    )
    .customizeCollection('orders', (orders) =>
      orders
        .addManyToOneRelation('customer', 'customers', { foreignKey: 'customerId' })
        .importField('customerName', { path: 'customer:fullName' })
        .addSegment('big', { field: 'amount', operator: 'GreaterThan', value: 100 })
        .addFieldValidation('amount', 'GreaterThan', 0)
        .addAction('Mark as paid', {
          scope: 'Single',
          execute: async (context, resultBuilder) => {
            await context.collection.update(context.filter, { status: 'paid' });
            return resultBuilder.success(`Order ${await context.getRecordId()} paid`);
          },
        }),
    );

  // Applies every customization on a fresh decorator stack (call again to rebuild on restart).
  const dataSource = await customizer.getDataSource();
  const orders = dataSource.getCollection('orders');

  const bigOrders = await orders.list(
    caller,
    new PaginatedFilter({
      segment: 'big',
      conditionTree: new ConditionTreeLeaf('customerName', 'Contains', 'Ada'),
    }),
    new Projection('id', 'amount', 'customerName'),
  );
  const result = await orders.execute(
    caller,
    'Mark as paid',
    {},
    new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 1) }),
  );
  return { bigOrders, result };
}
