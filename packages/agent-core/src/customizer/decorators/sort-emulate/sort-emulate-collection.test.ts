import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { Page } from '../../../toolkit/query/page';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller();

describe('sorting customizations', () => {
  const build = () =>
    buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addField('titleLength', {
            columnType: 'Number',
            dependencies: ['title'],
            getValues: (records) => records.map((r) => String(r.title).length),
          })
          .emulateFieldSorting('titleLength')
          .replaceFieldSorting('authorId', [
            { field: 'price', ascending: false },
            { field: 'id', ascending: true },
          ])
          .disableFieldSorting('status'),
      ),
    );

  it('sorts a computed field in memory and applies the page afterwards', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    const page = await books.list(
      caller,
      new PaginatedFilter({
        sort: new Sort({ field: 'titleLength', ascending: false }),
        page: new Page(1, 2),
      }),
      new Projection('title', 'titleLength'),
    );
    expect(page).toEqual([
      { title: 'The Dispossessed', titleLength: 16 },
      { title: 'Anonymous', titleLength: 9 },
    ]);
  });

  it('replaces a sort by other clauses, inverted for descending', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    const ascending = await books.list(
      caller,
      new PaginatedFilter({ sort: new Sort({ field: 'authorId', ascending: true }) }),
      new Projection('id'),
    );
    expect(ascending.map((r) => r.id)).toEqual([2, 1, 3, 4, 5]);
    const descending = await books.list(
      caller,
      new PaginatedFilter({ sort: new Sort({ field: 'authorId', ascending: false }) }),
      new Projection('id'),
    );
    expect(descending.map((r) => r.id)).toEqual([5, 4, 3, 1, 2]);
  });

  it('updates the schema', async () => {
    const { dataSource } = await build();
    const { fields } = dataSource.getCollection('books').schema;
    expect(fields.titleLength).toMatchObject({ isSortable: true });
    expect(fields.status).toMatchObject({ isSortable: false });
  });

  it('refuses unknown fields and a missing replacement', async () => {
    await expect(
      buildBookshop((c) => c.customizeCollection('books', (b) => b.emulateFieldSorting('nope'))),
    ).rejects.toThrow("The 'books.nope' field was not found");
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.replaceFieldSorting('title', null as never)),
      ),
    ).rejects.toThrow('A new sorting method should be provided to replace field sorting');
  });

  it('sorts by an emulated field of a related collection', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (authors) =>
        authors
          .addField('reversed', {
            columnType: 'String',
            dependencies: ['lastName'],
            getValues: (records) => records.map((r) => [...String(r.lastName)].reverse().join('')),
          })
          .emulateFieldSorting('reversed'),
      ),
    );
    const records = await dataSource.getCollection('books').list(
      caller,
      new PaginatedFilter({
        sort: new Sort(
          { field: 'author:reversed', ascending: true },
          { field: 'id', ascending: true },
        ),
      }),
      new Projection('id', 'author:reversed'),
    );
    // 'niuG eL' < 'trebreH' < 'ttehctarP', the book without author first.
    expect(records.map((r) => r.id)).toEqual([5, 3, 1, 2, 4]);
  });
});
