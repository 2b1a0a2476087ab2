import {
  type Caller,
  DataSourceCustomizer,
  type DataSource,
  InMemoryDataSource,
  PaginatedFilter,
  type PlainConditionTree,
  Projection,
  type RecordData,
  type SortClause,
} from '@canopy/agent-core';

/** The caller every test runs as. */
export const caller: Caller = {
  id: 1,
  email: 'ada@shop.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  team: 'Operations',
  role: 'Admin',
  tags: {},
  timezone: 'Europe/Paris',
};

const id = { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true } as const;

/**
 * A small in-memory shop: companies ← customers (object column `address`) ← orders (Json column
 * `delivery`), so `orders.customer:company` is a relation path of two hops.
 */
export function makeShop(): InMemoryDataSource {
  return new InMemoryDataSource({
    companies: {
      fields: {
        id,
        name: { type: 'Column', columnType: 'String' },
        country: { type: 'Column', columnType: 'Enum', enumValues: ['FR', 'US'] },
      },
      records: [
        { id: 1, name: 'Acme', country: 'US' },
        { id: 2, name: 'Bistro', country: 'FR' },
      ],
    },
    customers: {
      fields: {
        id,
        name: { type: 'Column', columnType: 'String' },
        address: {
          type: 'Column',
          columnType: {
            city: 'String',
            kind: { type: 'Enum', enumValues: ['home', 'work'] },
            geo: { lat: 'Number', lng: 'Number' },
          },
        },
        companyId: { type: 'Column', columnType: 'Number' },
        company: {
          type: 'ManyToOne',
          foreignCollection: 'companies',
          foreignKey: 'companyId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        {
          id: 1,
          name: 'Ada',
          address: { city: 'Lyon', kind: 'home', geo: { lat: 45.76, lng: 4.83 } },
          companyId: 2,
        },
        { id: 2, name: 'Bob', address: { city: 'Boston', kind: 'work' }, companyId: 1 },
        { id: 3, name: 'Cy', address: null, companyId: null },
      ],
    },
    orders: {
      fields: {
        id,
        reference: { type: 'Column', columnType: 'String' },
        delivery: { type: 'Column', columnType: 'Json' },
        customerId: { type: 'Column', columnType: 'Number' },
        customer: {
          type: 'ManyToOne',
          foreignCollection: 'customers',
          foreignKey: 'customerId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        {
          id: 1,
          reference: 'A-1',
          delivery: { carrier: 'UPS', address: { city: 'Lyon', zip: '69001' }, weight: 2 },
          customerId: 1,
        },
        {
          id: 2,
          reference: 'B-2',
          delivery: { carrier: 'DHL', address: { city: 'Paris', zip: '75001' }, weight: 5 },
          customerId: 2,
        },
        { id: 3, reference: 'C-3', delivery: { carrier: 'UPS' }, customerId: 3 },
      ],
    },
  });
}

/** Builds the whole customizer stack over `source` (default: a fresh shop) with customizations. */
export async function buildShop(
  customize: (customizer: DataSourceCustomizer) => void,
  source: DataSource = makeShop(),
): Promise<DataSource> {
  const customizer = new DataSourceCustomizer().addDataSource(async () => source);
  customize(customizer);
  return customizer.getDataSource();
}

/** Lists a collection of the built stack, sorted by id unless a sort is given. */
export function list(
  dataSource: DataSource,
  collection: string,
  fields: string[],
  options: { conditionTree?: PlainConditionTree; sort?: SortClause[] } = {},
): Promise<RecordData[]> {
  return dataSource.getCollection(collection).list(
    caller,
    new PaginatedFilter({
      conditionTree: options.conditionTree ?? null,
      sort: options.sort ?? [{ field: 'id', ascending: true }],
    }),
    new Projection(...fields),
  );
}

/** The exposed fields of a collection (name → type summary), as the schema file would list them. */
export function exposedFields(dataSource: DataSource, collection: string): Record<string, string> {
  const fields = dataSource.getCollection(collection).schema.fields;
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      field.type === 'Column' ? JSON.stringify(field.columnType) : field.type,
    ]),
  );
}
