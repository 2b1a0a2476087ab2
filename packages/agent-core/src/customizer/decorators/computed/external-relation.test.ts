import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

describe('addExternalRelation', () => {
  it('adds related objects computed per record from its primary key by default', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (authors) =>
        authors.addExternalRelation('awards', {
          schema: { name: 'String', year: 'Number' },
          listRecords: async (record) => (record.id === 2 ? [{ name: 'Hugo', year: 1975 }] : []),
        }),
      ),
    );
    const authors = dataSource.getCollection('authors');
    expect(authors.schema.fields.awards).toMatchObject({
      columnType: [{ name: 'String', year: 'Number' }],
      isReadOnly: true,
    });
    const records = await authors.list(
      makeCaller(),
      new PaginatedFilter({ sort: new Sort({ field: 'id', ascending: true }) }),
      new Projection('id', 'awards'),
    );
    expect(records).toEqual([
      { id: 1, awards: [] },
      { id: 2, awards: [{ name: 'Hugo', year: 1975 }] },
      { id: 3, awards: [] },
    ]);
  });
});
