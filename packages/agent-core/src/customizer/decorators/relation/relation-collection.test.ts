import type { CollectionCustomizer } from '../../collection-customizer';
import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { Aggregation } from '../../../toolkit/query/aggregation';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';
import { InMemoryDataSource } from '../../../toolkit/in-memory/in-memory-data-source';

const caller = makeCaller();

function makeProfiles(): InMemoryDataSource {
  return new InMemoryDataSource({
    profiles: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
        authorId: { type: 'Column', columnType: 'Number' },
        bio: { type: 'Column', columnType: 'String' },
      },
      records: [
        { id: 10, authorId: 1, bio: 'Desert' },
        { id: 11, authorId: 3, bio: 'Disc' },
      ],
    },
  });
}

describe('relations added by the customizer', () => {
  async function build() {
    // The bookshop and the profiles live in two data sources: relations cross them.
    const profiles = makeProfiles();
    const { dataSource } = await buildBookshop((customizer) => {
      customizer.addDataSource(async () => profiles);
      customizer.customizeCollection('books', (books) =>
        books.addManyToOneRelation('writer', 'authors', { foreignKey: 'authorId' }),
      );
      customizer.customizeCollection('authors', (authors) =>
        authors
          .addOneToOneRelation('profile', 'profiles', { originKey: 'authorId' })
          .addOneToManyRelation('works', 'books', { originKey: 'authorId' }),
      );
    });
    return dataSource;
  }

  it('reads ManyToOne and OneToOne relations across data sources, null when missing', async () => {
    const dataSource = await build();
    const books = await dataSource
      .getCollection('books')
      .list(
        caller,
        new PaginatedFilter({ sort: new Sort({ field: 'id', ascending: true }) }),
        new Projection('id', 'writer:lastName', 'writer:profile:bio'),
      );
    expect(books).toEqual([
      { id: 1, writer: { lastName: 'Herbert', profile: { bio: 'Desert' } } },
      { id: 2, writer: { lastName: 'Herbert', profile: { bio: 'Desert' } } },
      { id: 3, writer: { lastName: 'Le Guin', profile: null } },
      { id: 4, writer: { lastName: 'Pratchett', profile: { bio: 'Disc' } } },
      { id: 5, writer: null },
    ]);
  });

  it('filters and sorts on relation paths and aggregates by them in memory', async () => {
    const dataSource = await build();
    const books = dataSource.getCollection('books');
    const filtered = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('writer:profile:bio', 'Equal', 'Disc'),
        sort: new Sort({ field: 'writer:lastName', ascending: false }),
      }),
      new Projection('title'),
    );
    expect(filtered).toEqual([{ title: 'Mort' }]);
    const rows = await books.aggregate(
      caller,
      new Filter(),
      new Aggregation({ operation: 'Count', groups: [{ field: 'writer:country' }] }),
    );
    expect(rows).toEqual([
      { value: 3, group: { 'writer:country': 'US' } },
      { value: 1, group: { 'writer:country': 'UK' } },
      { value: 1, group: { 'writer:country': null } },
    ]);
  });

  it('publishes ManyToMany relations with default targets', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (authors) =>
        authors.addManyToManyRelation('coAuthors', 'authors', 'books', {
          originKey: 'authorId',
          foreignKey: 'authorId',
        }),
      ),
    );
    expect(dataSource.getCollection('authors').schema.fields.coAuthors).toEqual({
      type: 'ManyToMany',
      foreignCollection: 'authors',
      throughCollection: 'books',
      originKey: 'authorId',
      foreignKey: 'authorId',
      originKeyTarget: 'id',
      foreignKeyTarget: 'id',
    });
  });

  it('publishes the relation schemas with default targets', async () => {
    const dataSource = await build();
    expect(dataSource.getCollection('books').schema.fields.writer).toEqual({
      type: 'ManyToOne',
      foreignCollection: 'authors',
      foreignKey: 'authorId',
      foreignKeyTarget: 'id',
    });
    expect(dataSource.getCollection('authors').schema.fields.works).toMatchObject({
      type: 'OneToMany',
      originKeyTarget: 'id',
    });
  });

  it.each([
    [
      (b: CollectionCustomizer) => b.addManyToOneRelation('x', 'nope', { foreignKey: 'authorId' }),
      "Collection 'nope' not found",
    ],
    [
      (b: CollectionCustomizer) => b.addManyToOneRelation('x', 'authors', { foreignKey: 'nope' }),
      "The 'books.nope' field was not found",
    ],
    [
      (b: CollectionCustomizer) => b.addManyToOneRelation('x', 'authors', { foreignKey: 'title' }),
      "Types from 'books.title' (String) and 'authors.id' (Number) do not match.",
    ],
    [
      (b: CollectionCustomizer) =>
        b.addManyToOneRelation('x', 'authors', {
          foreignKey: 'authorId',
          foreignKeyTarget: 'books',
        }),
      "The 'authors.books' field was not found",
    ],
    [
      (b: CollectionCustomizer) =>
        b.addManyToOneRelation('title', 'authors', { foreignKey: 'authorId' }),
      "Field 'title' is already defined in collection 'books'.",
    ],
    [
      (b: CollectionCustomizer) =>
        b.addManyToManyRelation('peers', 'books', 'authors', {
          originKey: 'id',
          foreignKey: 'firstName',
        }),
      "Types from 'authors.firstName' (String) and 'books.id' (Number) do not match.",
    ],
  ])('refuses invalid relations at start (%#)', async (customize, message) => {
    await expect(buildBookshop((c) => c.customizeCollection('books', customize))).rejects.toThrow(
      message,
    );
  });
});
