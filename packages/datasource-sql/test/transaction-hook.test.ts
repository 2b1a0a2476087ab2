import {
  type Caller,
  ConditionTreeLeaf,
  Filter,
  PaginatedFilter,
  Projection,
} from '@canopy/agent-core';
import { type TestDialect, useTestDatabase } from '@canopy/test-databases';
import type { Knex } from 'knex';

import { createSqlDataSource } from '../src';
import type { SqlDataSource } from '../src/sql-data-source';

const caller: Caller = {
  id: 1,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  team: 'Ops',
  role: 'Admin',
  tags: {},
  timezone: 'UTC',
};

/**
 * The transaction hook (`caller.transaction`): an operation whose caller carries a transaction
 * opened on the data source's own knex runs inside it — reads see its uncommitted writes, and a
 * rollback undoes every write; a transaction of another driver is ignored.
 */
describe.each<TestDialect>(['postgres', 'mariadb'])('transaction hook on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let dataSource: SqlDataSource;

  beforeAll(async () => {
    await db().knex.schema.createTable('notes', (table) => {
      table.increments('id').primary();
      table.string('body').notNullable();
    });
    await db()
      .knex('notes')
      .insert([{ body: 'one' }, { body: 'two' }]);
    dataSource = (await createSqlDataSource(db().url)(
      () => undefined,
      async () => undefined,
    )) as SqlDataSource;
  });

  afterAll(async () => {
    await dataSource?.close();
  });

  const bodies = async () =>
    (await db().knex('notes').orderBy('id')).map((row: { body: string }) => row.body);

  it('runs create, update, delete and list in the transaction, undone by a rollback', async () => {
    const notes = dataSource.getCollection('notes');
    const knex = dataSource.knex;
    const failure = new Error('rollback on purpose');
    await expect(
      knex.transaction(async (handle: Knex.Transaction) => {
        const inside: Caller = { ...caller, transaction: { driver: knex, handle } };
        await notes.create(inside, [{ body: 'three' }]);
        await notes.update(
          inside,
          new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 1) }),
          { body: 'ONE' },
        );
        await notes.delete(
          inside,
          new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 2) }),
        );
        const seen = await notes.list(
          inside,
          new PaginatedFilter({ sort: [{ field: 'id', ascending: true }] }),
          new Projection('body'),
        );
        expect(seen.map((row) => row.body)).toEqual(['ONE', 'three']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await bodies()).toEqual(['one', 'two']);
  });

  it('ignores a transaction opened on another driver', async () => {
    const notes = dataSource.getCollection('notes');
    const foreign = { driver: {}, handle: {} };
    await notes.update(
      { ...caller, transaction: foreign },
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 2) }),
      { body: 'TWO' },
    );
    expect(await bodies()).toEqual(['one', 'TWO']);
  });
});
