import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';

const caller = makeCaller();

describe('removeField and removeCollection', () => {
  it('hides fields and the relations that depend on them; hidden fields stay usable by customizations', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.removeField('authorId', 'price').addField('priceLabel', {
          columnType: 'String',
          dependencies: ['price'],
          getValues: (r) => r.map((x) => `$${x.price}`),
        }),
      ),
    );
    const books = dataSource.getCollection('books');
    expect(Object.keys(books.schema.fields)).toEqual([
      'id',
      'title',
      'status',
      'publishedAt',
      'priceLabel',
    ]);
    expect(Object.keys(dataSource.getCollection('authors').schema.fields)).toEqual([
      'id',
      'firstName',
      'lastName',
      'country',
    ]);
    const [first] = await books.list(caller, new PaginatedFilter(), new Projection('priceLabel'));
    expect(first).toEqual({ priceLabel: '$10' });
    const [created] = await books.create(caller, [{ title: 'Eric' }]);
    expect(created).not.toHaveProperty('authorId');
  });

  it('hides collections from the list but keeps them usable, hiding relations towards them', async () => {
    const { dataSource } = await buildBookshop((c) => c.removeCollection('authors'));
    expect(dataSource.collections.map((collection) => collection.name)).toEqual(['books']);
    expect(dataSource.getCollection('books').schema.fields.author).toBeUndefined();
    expect(dataSource.getCollection('authors').name).toBe('authors');
  });

  it('refuses unknown names and primary keys', async () => {
    await expect(
      buildBookshop((c) => c.customizeCollection('books', (b) => b.removeField('nope'))),
    ).rejects.toThrow("The 'books.nope' field was not found");
    await expect(
      buildBookshop((c) => c.customizeCollection('books', (b) => b.removeField('id'))),
    ).rejects.toThrow("Cannot hide primary key 'books.id'.");
    await expect(buildBookshop((c) => c.removeCollection('nope'))).rejects.toThrow(
      "Collection 'nope' not found",
    );
  });
});
