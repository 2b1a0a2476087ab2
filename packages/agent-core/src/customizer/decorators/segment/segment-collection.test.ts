import { buildBookshop, makeBookshop, makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller({ email: 'terry@example.com' });
const sort = new Sort({ field: 'id', ascending: true });

describe('addSegment', () => {
  const build = () =>
    buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addSegment('cheap', { field: 'price', operator: 'LessThan', value: 10 })
          .addSegment('mine', async (context) => ({
            field: 'author:firstName',
            operator: 'Equal',
            value: context.caller.email.startsWith('terry') ? 'Terry' : 'Frank',
          }))
          .addSegment('broken', async () => ({ field: 'price', operator: 'Equal', value: 'free' })),
      ),
    );

  it('intersects the segment tree (static or computed from the context) with the filter', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    expect(dataSource.getCollection('books').schema.segments).toEqual(['cheap', 'mine', 'broken']);
    const cheap = await books.list(
      caller,
      new PaginatedFilter({
        segment: 'cheap',
        conditionTree: new ConditionTreeLeaf('status', 'Equal', 'published'),
        sort,
      }),
      new Projection('id'),
    );
    expect(cheap).toEqual([{ id: 3 }]);
    const mine = await books.list(
      caller,
      new PaginatedFilter({ segment: 'mine', sort }),
      new Projection('title'),
    );
    expect(mine).toEqual([{ title: 'Mort' }]);
  });

  it('refuses a static segment naming an unknown field when customizations are applied', async () => {
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (books) =>
          books.addSegment('typo', { field: 'pricee', operator: 'LessThan', value: 10 }),
        ),
      ),
    ).rejects.toThrow(/^Segment 'typo' of 'books' is invalid: .*pricee/);
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (books) =>
          books.addSegment('wrong type', { field: 'price', operator: 'Equal', value: 'free' }),
        ),
      ),
    ).rejects.toThrow(
      `Segment 'wrong type' of 'books' is invalid: The given value has a wrong type for "books.price": "free"`,
    );
  });

  it('lets an unknown segment pass without restriction and validates computed segment trees when used', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    expect(
      await books.list(
        caller,
        new PaginatedFilter({ segment: 'unknown', sort }),
        new Projection('id'),
      ),
    ).toHaveLength(5);
    await expect(
      books.list(caller, new PaginatedFilter({ segment: 'broken' }), new Projection('id')),
    ).rejects.toThrow('The given value has a wrong type for "books.price": "free"');
  });

  it('restricts live-query segments to the primary keys their query returns', async () => {
    const shop = makeBookshop();
    shop.nativeQueryConnections.main = 'in-memory';
    const queries: unknown[] = [];
    shop.executeNativeQuery = async (connection: string, query: string, variables?: unknown) => {
      queries.push([connection, query, variables]);
      return [{ id: 2 }, { id: 4 }];
    };
    const { dataSource } = await buildBookshop(() => undefined, shop);
    const records = await dataSource.getCollection('books').list(
      caller,
      new PaginatedFilter({
        liveQuerySegment: {
          connectionName: 'main',
          query: 'SELECT id FROM books WHERE $x',
          contextVariables: { x: 1 },
        },
        sort,
      }),
      new Projection('id'),
    );
    expect(records).toEqual([{ id: 2 }, { id: 4 }]);
    expect(queries).toEqual([['main', 'SELECT id FROM books WHERE $x', { x: 1 }]]);

    shop.executeNativeQuery = async () => {
      throw new Error('syntax error at "WHERE"');
    };
    await expect(
      dataSource
        .getCollection('books')
        .list(
          caller,
          new PaginatedFilter({ liveQuerySegment: { connectionName: 'main', query: 'SELECT' } }),
          new Projection('id'),
        ),
    ).rejects.toMatchObject({
      code: 'BUSINESS_ERROR',
      message:
        'An error occurred during the execution of the segment query - syntax error at "WHERE"',
    });
  });
});
