import {
  Aggregation,
  DataSourceCustomizer,
  Filter,
  PaginatedFilter,
  Projection,
  type Caller,
  type DataSource,
} from '@canopy/agent-core';
import { createSqlDataSource } from '../src/create-sql-data-source';
import { createShopDatabase, type ShopDatabase } from './fixture/shop-database';

const caller: Caller = {
  id: 1,
  email: 'ops@example.com',
  firstName: 'Op',
  lastName: 'S',
  team: 'Ops',
  role: 'Admin',
  tags: {},
  timezone: 'Europe/Paris',
};

// The SQL source under the agent's customizer stack: its factory fits `addDataSource`, its schema
// passes the validation layers, and what the customizer builds (search trees, computed fields'
// dependencies, relation paths) still runs as native SQL.
describe('SQL data source under the customizer', () => {
  let database: ShopDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createShopDatabase('sqlite');
    dataSource = await new DataSourceCustomizer()
      .addDataSource(createSqlDataSource(database.url))
      .customizeCollection('customers', (customers) => {
        customers.addField('label', {
          columnType: 'String',
          dependencies: ['name', 'email'],
          getValues: (records) => records.map((record) => `${record.name} <${record.email}>`),
        });
      })
      .getDataSource();
  }, 60_000);

  afterAll(async () => {
    await dataSource?.close?.();
    await database?.drop();
  });

  it('lists with relation paths and computed fields', async () => {
    const rows = await dataSource.getCollection('orders').list(
      caller,
      new PaginatedFilter({
        conditionTree: { field: 'customer:tier', operator: 'Equal', value: 'gold' },
        sort: [{ field: 'id', ascending: true }],
      }),
      new Projection('id', 'customer:label'),
    );
    expect(rows).toEqual([
      { id: 1, customer: { label: 'Ada Lovelace <ada@example.com>' } },
      { id: 2, customer: { label: 'Ada Lovelace <ada@example.com>' } },
    ]);
  });

  it('searches with the customizer search language, run as SQL', async () => {
    const search = async (text: string) =>
      (
        await dataSource
          .getCollection('customers')
          .list(
            caller,
            new PaginatedFilter({ search: text, sort: [{ field: 'id', ascending: true }] }),
            new Projection('id'),
          )
      ).map((row) => row.id);
    expect(await search('hopper')).toEqual([2]);
    expect(await search('example.com -ada')).toEqual([2, 3, 4]);
  });

  it('aggregates by month in the caller zone', async () => {
    const rows = await dataSource.getCollection('orders').aggregate(
      caller,
      new Filter({ conditionTree: { field: 'placed_at', operator: 'Present' } }),
      new Aggregation({
        operation: 'Count',
        groups: [{ field: 'placed_at', operation: 'Month' }],
      }),
    );
    expect(rows.map((row) => row.group.placed_at).sort()).toEqual([
      '2024-01-01',
      '2024-02-01',
      '2024-04-01',
    ]);
  });
});
