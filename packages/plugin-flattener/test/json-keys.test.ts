import type { ColumnSchema, DataSource, PlainConditionTree } from '@canopy/agent-core';
import { openSqlDataSource, type SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { flattenJsonColumn } from '../src';
import { buildShop, list } from './shop';

const TABLES = {
  postgres: `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, address jsonb)`,
  mariadb: `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, address JSON)`,
};

/**
 * Flattened fields of a JSON column filter in SQL through the key path (`address:country`): a
 * team scope like `address@@@country in [FR, DE]` runs as one query, on PostgreSQL `jsonb` and
 * MariaDB `JSON` alike.
 */
describe.each(['postgres', 'mariadb'] as const)(
  'flattened JSON keys filter in SQL on %s',
  (kind) => {
    const db = useTestDatabase(kind);
    let sql: SqlDataSource;
    let dataSource: DataSource;
    const queries: string[] = [];

    beforeAll(async () => {
      const { knex } = db();
      await knex.raw(TABLES[kind]);
      await knex('customers').insert(
        [
          [1, 'Ada', { country: 'FR', zip: '75001', geo: { lat: 48.85 }, vip: true }],
          [2, 'Bob', { country: 'US', zip: '02108', geo: { lat: 42.36 }, vip: false }],
          [3, 'Cyd', { country: 'DE', geo: { lat: 52.52 } }],
          [4, 'Dee', { zip: '', country: null }],
          [5, 'Eve', null],
          [6, 'Fay', { country: 'fr' }],
        ].map(([id, name, address]) => ({
          id,
          name,
          address: address === null ? null : JSON.stringify(address),
        })),
      );
      sql = await openSqlDataSource(db().url);
      sql.knex.on('query', (query: { sql: string }) => queries.push(query.sql));
      dataSource = await buildShop(
        (customizer) =>
          customizer.customizeCollection('customers', (customers) =>
            customers.use(flattenJsonColumn, {
              columnName: 'address',
              columnType: {
                country: 'String',
                zip: 'String',
                geo: { lat: 'Number' },
                vip: 'Boolean',
              },
            }),
          ),
        sql,
      );
    }, 60_000);

    afterAll(async () => {
      await sql?.close();
    });

    async function ids(conditionTree: PlainConditionTree): Promise<number[]> {
      queries.length = 0;
      const records = await list(dataSource, 'customers', ['id'], { conditionTree });
      // The condition reached the database: one SELECT, no listing of every row to filter in memory.
      expect(queries).toHaveLength(1);
      return records.map((record) => record.id as number);
    }

    it('declares the flattened fields filterable with presence, equality and membership', () => {
      const field = dataSource.getCollection('customers').schema.fields[
        'address@@@country'
      ] as ColumnSchema;
      expect([...field.filterOperators].sort()).toEqual(
        ['Blank', 'Equal', 'In', 'Missing', 'NotEqual', 'NotIn', 'Present'].sort(),
      );
      expect(field.isSortable).toBeFalsy();
    });

    it('filters text keys with in and equal, case-sensitively', async () => {
      const country = 'address@@@country';
      expect(await ids({ field: country, operator: 'In', value: ['FR', 'DE', 'ES'] })).toEqual([
        1, 3,
      ]);
      expect(await ids({ field: country, operator: 'Equal', value: 'FR' })).toEqual([1]);
      expect(await ids({ field: country, operator: 'Equal', value: 'fr' })).toEqual([6]);
    });

    it('matches missing keys, JSON nulls and NULL columns as missing', async () => {
      const country = 'address@@@country';
      expect(await ids({ field: country, operator: 'Missing' })).toEqual([4, 5]);
      expect(await ids({ field: country, operator: 'NotIn', value: ['FR', 'US'] })).toEqual([
        3, 4, 5, 6,
      ]);
      expect(await ids({ field: country, operator: 'NotEqual', value: 'US' })).toEqual([
        1, 3, 4, 5, 6,
      ]);
      expect(await ids({ field: country, operator: 'In', value: ['US', null] })).toEqual([2, 4, 5]);
      expect(await ids({ field: 'address@@@zip', operator: 'Blank' })).toEqual([3, 4, 5, 6]);
      expect(await ids({ field: 'address@@@zip', operator: 'Present' })).toEqual([1, 2]);
    });

    it('compares nested numbers as numbers and booleans as booleans', async () => {
      expect(await ids({ field: 'address@@@geo@@@lat', operator: 'Equal', value: 48.85 })).toEqual([
        1,
      ]);
      expect(
        await ids({ field: 'address@@@geo@@@lat', operator: 'In', value: [42.36, 52.52] }),
      ).toEqual([2, 3]);
      expect(await ids({ field: 'address@@@vip', operator: 'Equal', value: true })).toEqual([1]);
      expect(await ids({ field: 'address@@@vip', operator: 'Equal', value: false })).toEqual([2]);
    });

    it('combines key conditions with the other conditions of the tree', async () => {
      expect(
        await ids({
          aggregator: 'Or',
          conditions: [
            { field: 'address@@@country', operator: 'Equal', value: 'DE' },
            { field: 'name', operator: 'Equal', value: 'Bob' },
          ],
        }),
      ).toEqual([2, 3]);
    });
  },
);
