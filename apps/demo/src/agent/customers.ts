import type { CollectionCustomizer } from '@canopy/agent-core';
import { flattenJsonColumn } from '@canopy/plugin-flattener';

/** Loyalty history of a customer: a virtual collection computed from the record. */
function loyaltyEvents(record: { id?: unknown; created_at?: unknown }) {
  const id = Number(record.id);
  const since = new Date(String(record.created_at));
  return Array.from({ length: 1 + (id % 3) }, (_, index) => ({
    id: `${id}-${index + 1}`,
    date: new Date(since.getTime() + (index + 1) * 30 * 86_400_000).toISOString(),
    points: 50 * (index + 1) + (id % 7) * 10,
    reason: ['welcome', 'birthday', 'anniversary'][index] ?? 'bonus',
  }));
}

/**
 * Customers: a jsonb address flattened into fields, computed and renamed fields, validation rules
 * (an e-mail contains "@", names of at most 100 characters, coordinates within the globe),
 * search replaced by a name/e-mail search, an external relation, a chart and an action that
 * imports customers from a CSV file.
 */
export function customizeCustomers(customers: CollectionCustomizer): void {
  customers
    .use(flattenJsonColumn, {
      columnName: 'address',
      columnType: {
        street: 'String',
        city: 'String',
        zipCode: 'String',
        country: 'String',
        geo: { lat: 'Number', lng: 'Number' },
      },
    })
    .addField('fullName', {
      columnType: 'String',
      dependencies: ['first_name', 'last_name'],
      getValues: (records) => records.map((r) => `${r.first_name} ${r.last_name}`),
    })
    .emulateFieldSorting('fullName')
    .emulateFieldFiltering('fullName')
    // is_vip stays usable inside the agent (tier depends on it) but leaves the exported schema.
    .addField('tier', {
      columnType: 'Enum',
      enumValues: ['standard', 'vip'],
      dependencies: ['is_vip'],
      getValues: (records) => records.map((r) => (r.is_vip ? 'vip' : 'standard')),
    })
    .removeField('is_vip')
    .renameField('created_at', 'signedUpAt')
    .addFieldValidation('email', 'Contains', '@')
    // The limits of the data, in the schema: the console checks them before sending, the agent
    // refuses a value over them with a 400 naming the field.
    .addFieldValidation('first_name', 'ShorterThan', 101)
    .addFieldValidation('last_name', 'ShorterThan', 101)
    .addFieldValidation('address@@@geo@@@lat', 'GreaterThan', -90)
    .addFieldValidation('address@@@geo@@@lat', 'LessThan', 90)
    .addFieldValidation('address@@@geo@@@lng', 'GreaterThan', -180)
    .addFieldValidation('address@@@geo@@@lng', 'LessThan', 180)
    .replaceSearch((search) => ({
      aggregator: 'Or',
      conditions: [
        { field: 'email', operator: 'IContains', value: search },
        { field: 'last_name', operator: 'IContains', value: search },
        { field: 'first_name', operator: 'IContains', value: search },
      ],
    }))
    .addExternalRelation('loyaltyEvents', {
      schema: { id: 'String', date: 'Date', points: 'Number', reason: 'String' },
      dependencies: ['id', 'created_at'],
      listRecords: (record) => loyaltyEvents(record),
    })
    .addChart('ordersPerStatus', async (context, resultBuilder) => {
      const [id] = context.compositeRecordId;
      const rows = await context.dataSource
        .getCollection('orders')
        .aggregate(
          { conditionTree: { field: 'customer_id', operator: 'Equal', value: id } },
          { operation: 'Count', groups: [{ field: 'status' }] },
        );
      return resultBuilder.distribution(
        Object.fromEntries(rows.map((row) => [String(row.group.status), Number(row.value)])),
      );
    })
    .addAction('Import customers', {
      scope: 'Global',
      description: 'Creates customers from a CSV file with first_name,last_name,email columns.',
      submitButtonLabel: 'Import',
      form: [{ label: 'CSV file', type: 'File', isRequired: true }],
      execute: async (context, resultBuilder) => {
        const file = context.formValues['CSV file'] as { buffer: Buffer; name: string } | null;
        const lines = file?.buffer.toString('utf8').trim().split(/\r?\n/) ?? [];
        const [header, ...rows] = lines;
        if (header?.replace(/\s/g, '') !== 'first_name,last_name,email' || rows.length === 0) {
          return resultBuilder.error(
            'The file needs a first_name,last_name,email header and rows.',
          );
        }
        const created = await context.collection.create(
          rows.map((row) => {
            const [first_name, last_name, email] = row.split(',').map((cell) => cell.trim());
            return {
              first_name,
              last_name,
              email,
              address: { city: 'Unknown', country: 'FR' },
              is_vip: false,
              created_at: new Date().toISOString(),
            };
          }),
        );
        return resultBuilder.success(`${created.length} customers imported.`, {
          invalidated: ['customers'],
        });
      },
    })
    .addAction('Open in CRM', {
      scope: 'Single',
      execute: async (context, resultBuilder) =>
        resultBuilder.redirectTo(
          `https://crm.example.com/customers/${await context.getRecordId()}`,
        ),
    });
}
