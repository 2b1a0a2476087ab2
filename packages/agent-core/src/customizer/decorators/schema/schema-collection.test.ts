import { buildBookshop } from '../../../../test/fixtures';

describe('disableCount', () => {
  it('turns countable off in the exposed schema only for that collection', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) => b.disableCount()),
    );
    expect(dataSource.getCollection('books').schema.countable).toBe(false);
    expect(dataSource.getCollection('authors').schema.countable).toBe(true);
  });
});
