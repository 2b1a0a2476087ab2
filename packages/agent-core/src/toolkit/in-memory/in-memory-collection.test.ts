import { makeBookshop, makeCaller } from '../../../test/fixtures';
import { Aggregation } from '../query/aggregation';
import { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { Filter } from '../query/filter';
import { Page } from '../query/page';
import { PaginatedFilter } from '../query/paginated-filter';
import { Projection } from '../query/projection';
import { Sort } from '../query/sort';

describe('InMemoryCollection', () => {
  const caller = makeCaller();

  it('lists with relation paths in filter, sort, page and projection', async () => {
    const books = makeBookshop().getCollection('books');
    const records = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('author:country', 'Equal', 'US'),
        sort: new Sort({ field: 'price', ascending: false }),
        page: new Page(1, 2),
      }),
      new Projection('title', 'author:lastName'),
    );
    expect(records).toEqual([
      { title: 'Dune', author: { lastName: 'Herbert' } },
      { title: 'The Dispossessed', author: { lastName: 'Le Guin' } },
    ]);
  });

  it('returns null for a missing related record and sorts nulls first', async () => {
    const books = makeBookshop().getCollection('books');
    const records = await books.list(
      caller,
      new PaginatedFilter({ sort: new Sort({ field: 'author:lastName', ascending: true }) }),
      new Projection('id', 'author:lastName'),
    );
    expect(records[0]).toEqual({ id: 5, author: null });
    expect(records.map((r) => r.id)).toEqual([5, 1, 2, 3, 4]);
  });

  it('creates with generated ids, updates and deletes matching records', async () => {
    const books = makeBookshop().getCollection('books');
    const [created] = await books.create(caller, [{ title: 'Eric', price: 7, authorId: 3 }]);
    expect(created).toMatchObject({ id: 6, title: 'Eric' });

    await books.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('author:lastName', 'Equal', 'Pratchett') }),
      { status: 'published' },
    );
    const pratchett = await books.list(
      caller,
      new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('authorId', 'Equal', 3) }),
      new Projection('status'),
    );
    expect(pratchett).toEqual([{ status: 'published' }, { status: 'published' }]);

    await books.delete(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('price', 'LessThan', 9) }),
    );
    const left = await books.list(caller, new PaginatedFilter(), new Projection('id'));
    expect(left.map((r) => r.id)).toEqual([1, 2, 3, 5]);
  });

  it('rejects values of the wrong type and unknown columns', async () => {
    const books = makeBookshop().getCollection('books');
    await expect(books.create(caller, [{ price: 'cheap' }])).rejects.toThrow(
      'The given value has a wrong type for "books.price": "cheap". Expects Number.',
    );
    await expect(books.create(caller, [{ status: 'lost' }])).rejects.toThrow(
      /not listed in \[draft, published\]/,
    );
    await expect(books.update(caller, new Filter(), { nope: 1 })).rejects.toThrow(
      "The 'books.nope' field was not found",
    );
  });

  it('aggregates with groups through relations and date buckets in the caller zone', async () => {
    const books = makeBookshop().getCollection('books');
    expect(
      await books.aggregate(
        caller,
        new Filter(),
        new Aggregation({
          operation: 'Sum',
          field: 'price',
          groups: [{ field: 'author:country' }],
        }),
      ),
    ).toEqual([
      { value: 31, group: { 'author:country': 'US' } },
      { value: 8, group: { 'author:country': 'UK' } },
      { value: 0, group: { 'author:country': null } },
    ]);
    // Mort was published 1987-11-12T23:30Z, already the 13th in Paris.
    const byDay = await books.aggregate(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
      new Aggregation({ operation: 'Count', groups: [{ field: 'publishedAt', operation: 'Day' }] }),
    );
    expect(byDay).toEqual([{ value: 1, group: { publishedAt: '1987-11-13' } }]);
    expect(
      await books.aggregate(
        caller,
        new Filter(),
        new Aggregation({ operation: 'Count', field: 'price' }),
        1,
      ),
    ).toEqual([{ value: 4, group: {} }]);
  });

  it('evaluates date operators in the caller zone', async () => {
    const books = makeBookshop().getCollection('books');
    const records = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('publishedAt', 'Before', '1975-01-01'),
      }),
      new Projection('title'),
    );
    expect(records).toEqual([{ title: 'Dune' }, { title: 'The Dispossessed' }]);
  });
});
