import {
  DataSourceCustomizer,
  Filter,
  PaginatedFilter,
  Projection,
  type Caller,
  type DataSource,
} from '@canopy/agent-core';
import type { Knex } from 'knex';
import { createSqlDataSource } from '../src/create-sql-data-source';
import { createShopDatabase, type ShopDatabase } from './fixture/shop-database';
import { caller } from './shared-suite';

const segment = (query: string) => ({ connectionName: 'main', query, contextVariables: {} });

// A write whose selection is a live-query segment, inside a transaction of the data source (what
// the audit trail opens for every write and action run): the segment's SQL runs in that
// transaction. On the embedded PostgreSQL the pool has one connection, which the transaction
// holds: a segment query asking the pool for another waited until the pool gave up.
describe('live-query segments inside a transaction on the embedded PostgreSQL (one connection)', () => {
  let database: ShopDatabase;
  let dataSource: DataSource;
  let knex: Knex;

  beforeAll(async () => {
    database = await createShopDatabase('embedded-postgres');
    dataSource = await new DataSourceCustomizer()
      .addDataSource(createSqlDataSource(database.url, { liveQueryConnections: 'main' }))
      .getDataSource();
    knex = dataSource.getCollection('customers').nativeDriver as Knex;
  }, 60_000);

  afterAll(async () => {
    await dataSource?.close?.();
    await database?.drop();
  }, 60_000);

  it('runs the segment on the caller’s transaction, read-only, and the transaction goes on writing', async () => {
    const customers = dataSource.getCollection('customers');
    const names = await knex.transaction(async (handle) => {
      const inTransaction: Caller = { ...caller(), transaction: { driver: knex, handle } };
      const chosen = segment('SELECT id FROM customers ORDER BY id LIMIT 2');
      const listed = await customers.list(
        inTransaction,
        new PaginatedFilter({ liveQuerySegment: chosen, sort: [{ field: 'id', ascending: true }] }),
        new Projection('id'),
      );
      expect(listed).toHaveLength(2);
      await customers.update(inTransaction, new Filter({ liveQuerySegment: chosen }), {
        tier: 'silver',
      });
      // A segment may not write, inside the transaction too; the transaction survives it.
      await expect(
        customers.list(
          inTransaction,
          new PaginatedFilter({
            liveQuerySegment: segment("UPDATE customers SET name = 'x' RETURNING id"),
          }),
          new Projection('id'),
        ),
      ).rejects.toThrow(/read-only/);
      return handle('customers').where({ tier: 'silver' }).orderBy('id').pluck('id');
    });
    expect(names).toHaveLength(2);
    expect(await knex('customers').where({ name: 'x' }).pluck('id')).toEqual([]);
  }, 30_000);
});
