import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';
import { parseSearch } from '../../../toolkit/search/search-query';

const caller = makeCaller();
const sort = new Sort({ field: 'id', ascending: true });

async function search(text: string, extended = false) {
  const { dataSource } = await buildBookshop(() => undefined);
  const records = await dataSource
    .getCollection('books')
    .list(
      caller,
      new PaginatedFilter({ search: text, searchExtended: extended, sort }),
      new Projection('id'),
    );
  return records.map((r) => r.id);
}

describe('search', () => {
  it('parses tokens, quotes, negations, fields and OR', () => {
    expect(parseSearch('dune -children OR title:"the dis"')).toEqual([
      [
        { text: 'dune', negated: false, field: null, quoted: false },
        { text: 'children', negated: true, field: null, quoted: false },
      ],
      [{ text: 'the dis', negated: false, field: 'title', quoted: true }],
    ]);
  });

  it.each([
    ['dune', [1, 2]],
    ['DUNE -children', [1]],
    ['dune OR mort', [1, 2, 4]],
    ['title:"the dis"', [3]],
    ['12', [2]],
    ['>=10', [1, 2]],
    ['draft', [4, 5]],
    ['1987', [4]],
    ['nothing-matches-this', []],
    ['   ', [1, 2, 3, 4, 5]],
  ])('"%s" finds %p', async (text, ids) => {
    expect(await search(text)).toEqual(ids);
  });

  it('searches related columns when extended', async () => {
    expect(await search('pratchett')).toEqual([]);
    expect(await search('pratchett', true)).toEqual([4]);
  });

  it('uses replaceSearch, which may build on the default search', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.replaceSearch((text, _extended, context) =>
          context.generateSearchFilter(text, { onlyFields: ['author:lastName'] }),
        ),
      ),
    );
    const records = await dataSource
      .getCollection('books')
      .list(caller, new PaginatedFilter({ search: 'herbert', sort }), new Projection('id'));
    expect(records).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('disableSearch marks the collection unsearchable and replaceSearch searchable', async () => {
    const { dataSource } = await buildBookshop((c) => {
      c.customizeCollection('books', (b) => b.disableSearch());
      c.customizeCollection('authors', (a) => a.replaceSearch(() => null));
    });
    expect(dataSource.getCollection('books').schema.searchable).toBe(false);
    expect(dataSource.getCollection('authors').schema.searchable).toBe(true);
  });
});
