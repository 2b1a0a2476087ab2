import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller();

/** The bookshop's books with a `writer` relation, and a spy on the authors' list. */
async function booksWithWriter() {
  const { dataSource, bottom } = await buildBookshop((c) =>
    c.customizeCollection('books', (books) =>
      books.addManyToOneRelation('writer', 'authors', { foreignKey: 'authorId' }),
    ),
  );
  return {
    books: dataSource.getCollection('books'),
    authorsList: jest.spyOn(bottom.getCollection('authors'), 'list'),
  };
}

describe('lazy joins', () => {
  it('reads and filters the target key of a ManyToOne from the foreign key, without querying the relation', async () => {
    const { books, authorsList } = await booksWithWriter();
    const records = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('writer:id', 'In', [1, 3]),
        sort: new Sort({ field: 'id', ascending: true }),
      }),
      new Projection('id', 'writer:id'),
    );
    expect(records).toEqual([
      { id: 1, writer: { id: 1 } },
      { id: 2, writer: { id: 1 } },
      { id: 4, writer: { id: 3 } },
    ]);
    expect(authorsList).not.toHaveBeenCalled();

    const withName = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('id', 'In', [4, 5]),
        sort: new Sort({ field: 'id', ascending: true }),
      }),
      new Projection('writer:id', 'writer:lastName'),
    );
    expect(withName).toEqual([{ writer: { id: 3, lastName: 'Pratchett' } }, { writer: null }]);
    expect(authorsList).toHaveBeenCalledTimes(1);
  });

  it('plans each projection once, by its paths: the same paths in another object read the same way', async () => {
    const { books, authorsList } = await booksWithWriter();
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('id', 'In', [1, 4]),
      sort: new Sort({ field: 'id', ascending: true }),
    });
    const projection = new Projection('id', 'writer:id');
    const first = await books.list(caller, filter, projection);
    // The same object with a path added after its first list: planned again, by its new paths.
    projection.push('writer:lastName');
    const second = await books.list(caller, filter, projection);
    const third = await books.list(caller, filter, new Projection('id', 'writer:id'));
    expect(first).toEqual([
      { id: 1, writer: { id: 1 } },
      { id: 4, writer: { id: 3 } },
    ]);
    expect(second).toEqual([
      { id: 1, writer: { id: 1, lastName: expect.any(String) } },
      { id: 4, writer: { id: 3, lastName: 'Pratchett' } },
    ]);
    expect(third).toEqual(first);
    expect(authorsList).toHaveBeenCalledTimes(1);
  });
});
