import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { Aggregation } from '../../../toolkit/query/aggregation';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller();

describe('renameField', () => {
  const build = () =>
    buildBookshop((c) => {
      c.customizeCollection('authors', (a) =>
        a.renameField('lastName', 'surname').renameField('id', 'authorKey'),
      );
      c.customizeCollection('books', (b) =>
        b
          .renameField('title', 'name')
          .renameField('author', 'writer')
          // Customization code keeps using original names after a rename.
          .addField('shout', {
            columnType: 'String',
            dependencies: ['title', 'author:lastName'],
            getValues: (records) =>
              records.map(
                (r) =>
                  `${String(r.title).toUpperCase()} by ${(r.author as { lastName?: string } | null)?.lastName}`,
              ),
          })
          .addSegment('dune', { field: 'title', operator: 'Contains', value: 'Dune' }),
      );
    });

  it('exposes new names in schemas, relation keys, records, filters, sorts and aggregations', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    expect(books.schema.fields.writer).toEqual({
      type: 'ManyToOne',
      foreignCollection: 'authors',
      foreignKey: 'authorId',
      foreignKeyTarget: 'authorKey',
    });
    expect(books.schema.fields.title).toBeUndefined();
    const records = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('writer:surname', 'Equal', 'Herbert'),
        sort: new Sort({ field: 'name', ascending: true }),
        segment: 'dune',
      }),
      new Projection('name', 'writer:surname', 'shout'),
    );
    expect(records).toEqual([
      {
        name: 'Children of Dune',
        writer: { surname: 'Herbert' },
        shout: 'CHILDREN OF DUNE by Herbert',
      },
      { name: 'Dune', writer: { surname: 'Herbert' }, shout: 'DUNE by Herbert' },
    ]);
    const rows = await books.aggregate(
      caller,
      new Filter(),
      new Aggregation({ operation: 'Count', groups: [{ field: 'writer:surname' }] }),
      1,
    );
    expect(rows).toEqual([{ value: 2, group: { 'writer:surname': 'Herbert' } }]);
    await books.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('name', 'Equal', 'Mort') }),
      { name: 'Mort!' },
    );
    const [mort] = await books.list(
      caller,
      new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
      new Projection('name'),
    );
    expect(mort).toEqual({ name: 'Mort!' });
  });

  it('refuses an already-renamed name and names with spaces; renaming back cancels', async () => {
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.renameField('title', 'name').renameField('title', 'other'),
        ),
      ),
    ).rejects.toThrow("The 'books.title' field was not found");
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.renameField('title', 'the name')),
      ),
    ).rejects.toThrow("Something like 'theName' should work.");
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) =>
        b.renameField('title', 'name').renameField('name', 'title'),
      ),
    );
    expect(dataSource.getCollection('books').schema.fields.title).toBeDefined();
  });

  // Lists skip the translation while no collection of the data source renames anything: a rename
  // in one collection must still reach paths that other collections read through relations.
  it('translates relation paths of collections that rename nothing themselves', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) => a.renameField('lastName', 'surname')),
    );
    const records = await dataSource
      .getCollection('books')
      .list(
        caller,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
        new Projection('title', 'author:surname'),
      );
    expect(records).toEqual([{ title: 'Mort', author: { surname: 'Pratchett' } }]);
  });

  it('passes lists through again once every rename is cancelled', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        a.renameField('lastName', 'surname').renameField('surname', 'lastName'),
      ),
    );
    const records = await dataSource
      .getCollection('books')
      .list(
        caller,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
        new Projection('title', 'author:lastName'),
      );
    expect(records).toEqual([{ title: 'Mort', author: { lastName: 'Pratchett' } }]);
  });
});
