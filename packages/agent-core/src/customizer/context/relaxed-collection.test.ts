import { buildBookshop, makeCaller } from '../../../test/fixtures';
import { RelaxedCollection } from './relaxed-collection';

describe('RelaxedCollection', () => {
  it('accepts plain filters and aggregations, and checks values before they reach the layer', async () => {
    const { dataSource } = await buildBookshop(() => undefined);
    const books = new RelaxedCollection(dataSource.getCollection('books'), makeCaller());
    expect(
      await books.list(
        {
          conditionTree: { field: 'price', operator: 'GreaterThan', value: 10 },
          sort: [{ field: 'id', ascending: true }],
          page: { limit: 1 },
        },
        ['title'],
      ),
    ).toEqual([{ title: 'Children of Dune' }]);
    expect(await books.aggregate(null, { operation: 'Count' })).toEqual([{ value: 5, group: {} }]);
    await expect(
      books.list({ conditionTree: { field: 'price', operator: 'Equal', value: 'ten' } }, ['id']),
    ).rejects.toThrow('The given value has a wrong type for "books.price": "ten". Expects Number.');
    await expect(books.create([{ price: 'free' }])).rejects.toThrow('"books.price": "free"');
    await expect(books.update(null, { nope: 1 })).rejects.toThrow(
      "The 'books.nope' field was not found",
    );
  });
});
