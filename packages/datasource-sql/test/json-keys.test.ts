import { Filter, PaginatedFilter, Projection, type Caller } from '@canopy/agent-core';
import { useTestDatabase } from '@canopy/test-databases';
import { openSqlDataSource, type SqlDataSource } from '../src';

const caller = { id: 1, timezone: 'UTC' } as Caller;

/** Conditions on key paths inside JSON columns, given to the collections directly. */
describe('key paths inside JSON columns on PostgreSQL', () => {
  const db = useTestDatabase('postgres');
  let sql: SqlDataSource;

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE customers (id integer PRIMARY KEY, address json, settings jsonb);
      CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers(id));
      INSERT INTO customers VALUES
        (1, '{"country":"FR","zip":"75001"}', '{"tier":1}'),
        (2, '{"country":"US","zip":"02108"}', '{"tier":2}'),
        (3, '{"zip":"75001"}', NULL);
      INSERT INTO orders VALUES (10, 1), (11, 2), (12, 3);
    `);
    sql = await openSqlDataSource(db().url);
  });

  afterAll(async () => {
    await sql?.close();
  });

  const ids = async (collection: string, conditionTree: object) =>
    (
      await sql.getCollection(collection).list(
        caller,
        new PaginatedFilter({
          conditionTree: conditionTree as never,
          sort: [{ field: 'id', ascending: true }],
        }),
        new Projection('id'),
      )
    ).map((record) => record.id);

  it('declares key operators on json and jsonb columns only', () => {
    const fields = sql.getCollection('customers').schema.fields;
    for (const name of ['address', 'settings']) {
      const field = fields[name];
      expect(field?.type === 'Column' && [...(field.jsonKeyOperators ?? [])].sort()).toEqual(
        ['Blank', 'Equal', 'In', 'Missing', 'NotEqual', 'NotIn', 'Present'].sort(),
      );
    }
    const id = fields.id;
    expect(id?.type === 'Column' && id.jsonKeyOperators).toBeUndefined();
  });

  it('filters on a key of a json column, and through a relation', async () => {
    expect(
      await ids('customers', { field: 'address:country', operator: 'Equal', value: 'FR' }),
    ).toEqual([1]);
    expect(
      await ids('customers', { field: 'settings:tier', operator: 'In', value: [2, 3] }),
    ).toEqual([2]);
    expect(
      await ids('orders', { field: 'customer:address:country', operator: 'NotEqual', value: 'FR' }),
    ).toEqual([11, 12]);
  });

  it('binds the keys: two paths of the same shape share one statement, each with its own keys', async () => {
    expect(
      await ids('customers', { field: 'address:zip', operator: 'Equal', value: '75001' }),
    ).toEqual([1, 3]);
    const before = sql.statementCache.hits;
    expect(
      await ids('customers', { field: 'address:country', operator: 'Equal', value: 'US' }),
    ).toEqual([2]);
    expect(sql.statementCache.hits).toBe(before + 1);
  });

  it('refuses a key path into a column that is not JSON, and an operator keys do not take', async () => {
    await expect(ids('orders', { field: 'id:x', operator: 'Equal', value: 1 })).rejects.toThrow(
      /found 'Column' expected 'ManyToOne' or 'OneToOne'/,
    );
    await expect(
      ids('customers', { field: 'address:country', operator: 'Contains', value: 'F' }),
    ).rejects.toThrow(
      "The given operator 'Contains' is not supported by the column: 'customers.address:country'.",
    );
  });

  it('updates the records a key condition selects', async () => {
    await sql.getCollection('customers').update(
      caller,
      new Filter({
        conditionTree: { field: 'address:country', operator: 'Equal', value: 'US' } as never,
      }),
      { settings: { tier: 5 } },
    );
    expect(await ids('customers', { field: 'settings:tier', operator: 'Equal', value: 5 })).toEqual(
      [2],
    );
  });
});
