// Customization code of a project typed with the typings Canopy generates for it (`typings.ts`,
// written by `agent.updateTypesOnFileSystem`): `test/typed-project.test.ts` regenerates them from
// these very customizations and type-checks this file against them with tsc.
import { type Agent, createInMemoryDataSource } from '@canopy/agent-core';
import type { ExportedRecord, Schema } from './typings';

/** The project's data: customers, their orders and an audit table. */
export function shopDataSource() {
  return createInMemoryDataSource({
    customers: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        first_name: { type: 'Column', columnType: 'String' },
        last_name: { type: 'Column', columnType: 'String' },
        password_hash: { type: 'Column', columnType: 'String' },
      },
      records: [{ id: 1, first_name: 'Ada', last_name: 'Lovelace', password_hash: 'x' }],
    },
    orders: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        amount: { type: 'Column', columnType: 'Number' },
        customer_id: { type: 'Column', columnType: 'Number' },
        internal_note: { type: 'Column', columnType: 'String' },
      },
      records: [{ id: 10, amount: 250, customer_id: 1, internal_note: 'call first' }],
    },
    audit_entries: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        message: { type: 'Column', columnType: 'String' },
      },
      records: [],
    },
  });
}

/**
 * Renames, removes, imports and computes fields, and removes a collection. Every name given to
 * the customizer is the name it has inside the agent: before `renameField`, including removed
 * fields and collections.
 */
export function customize(agent: Agent<Schema>): Agent<Schema> {
  return agent
    .customizeCollection('customers', (customers) =>
      customers
        .renameField('first_name', 'firstName')
        .renameField('last_name', 'lastName')
        .removeField('password_hash')
        .addField('fullName', {
          columnType: 'String',
          dependencies: ['first_name', 'last_name'],
          getValues: (records) => records.map((r) => `${r.first_name} ${r.last_name}`),
        })
        .emulateFieldFiltering('fullName')
        .addFieldValidation('first_name', 'Present'),
    )
    .customizeCollection('orders', (orders) =>
      orders
        .addManyToOneRelation('customer', 'customers', { foreignKey: 'customer_id' })
        .importField('customerName', { path: 'customer:fullName' })
        .importField('customerFirstName', { path: 'customer:first_name' })
        .removeField('internal_note')
        .emulateFieldSorting('customerName'),
    )
    .customizeCollection('audit_entries', (entries) => entries.disableCount())
    .removeCollection('audit_entries');
}

/** A record as the agent's API returns it: exported names only. */
export const exportedOrder: ExportedRecord<'orders'> = {
  id: 10,
  amount: 250,
  customer_id: 1,
  customerName: 'Ada Lovelace',
  customerFirstName: 'Ada',
  customer: { id: 1, firstName: 'Ada', lastName: 'Lovelace', fullName: 'Ada Lovelace' },
};
