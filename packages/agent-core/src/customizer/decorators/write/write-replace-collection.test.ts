import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller();
const byId = (id: number) =>
  new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', id) });

describe('replaceFieldWriting and importField', () => {
  const build = () =>
    buildBookshop((c) => {
      c.customizeCollection('authors', (authors) =>
        authors
          .addField('fullName', {
            columnType: 'String',
            dependencies: ['firstName', 'lastName'],
            getValues: (records) => records.map((r) => `${r.firstName} ${r.lastName}`),
          })
          .replaceFieldWriting('fullName', (value) => {
            const [firstName, ...rest] = String(value).split(' ');
            return { firstName, lastName: rest.join(' ') };
          }),
      );
      c.customizeCollection('books', (books) =>
        books
          .importField('authorName', { path: 'author:fullName' })
          .importField('authorCountry', { path: 'author:country' })
          .importField('authorFirstName', { path: 'author:firstName', readonly: true }),
      );
    });

  it('turns a written computed field into a patch of its columns', async () => {
    const { dataSource, bottom } = await build();
    const authors = dataSource.getCollection('authors');
    expect(authors.schema.fields.fullName).toMatchObject({ isReadOnly: false });
    await authors.update(caller, byId(2), { fullName: 'Ursula K. Le Guin' });
    expect(bottom.getCollection('authors').records[1]).toMatchObject({
      firstName: 'Ursula',
      lastName: 'K. Le Guin',
    });
    const [created] = await authors.create(caller, [{ fullName: 'Iain Banks', country: 'UK' }]);
    expect(created).toMatchObject({ id: 4, firstName: 'Iain', lastName: 'Banks' });
  });

  it('imports related fields: readable, filterable, sortable and writable through nested relation writes', async () => {
    const { dataSource, bottom } = await build();
    const books = dataSource.getCollection('books');
    const records = await books.list(
      caller,
      new PaginatedFilter({
        conditionTree: new ConditionTreeLeaf('authorCountry', 'Equal', 'US'),
        sort: new Sort(
          { field: 'authorFirstName', ascending: false },
          { field: 'id', ascending: true },
        ),
      }),
      new Projection('id', 'authorName'),
    );
    expect(records).toEqual([
      { id: 3, authorName: 'Ursula Le Guin' },
      { id: 1, authorName: 'Frank Herbert' },
      { id: 2, authorName: 'Frank Herbert' },
    ]);
    // Writing an imported field writes the related record (through the author's own handler).
    await books.update(caller, byId(4), { authorName: 'Terence Pratchett' });
    expect(bottom.getCollection('authors').records[2]).toMatchObject({
      firstName: 'Terence',
      lastName: 'Pratchett',
    });
    // A book without author gets a new one.
    await books.update(caller, byId(5), { authorCountry: 'FR' });
    expect(bottom.getCollection('authors').records.at(-1)).toMatchObject({ id: 4, country: 'FR' });
    expect(bottom.getCollection('books').records[4]).toMatchObject({ authorId: 4 });
    expect(books.schema.fields.authorFirstName).toMatchObject({ isReadOnly: true });
  });

  it('imports null, not undefined, through an empty relation', async () => {
    const { dataSource } = await build();
    const records = await dataSource
      .getCollection('books')
      .list(
        caller,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 5) }),
        new Projection('id', 'authorName', 'authorCountry'),
      );
    expect(records).toEqual([{ id: 5, authorName: null, authorCountry: null }]);
    expect(Object.keys(records[0]!)).toEqual(['id', 'authorName', 'authorCountry']);
  });

  it('detects cycles and conflicts, and rejects bad handlers and imports', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        a
          .replaceFieldWriting('firstName', (value) => ({ lastName: value }))
          .replaceFieldWriting('lastName', (value) => ({ firstName: value }))
          .replaceFieldWriting('country', (value) => ({ firstName: `${value}!`, lastName: 'x' }))
          .addField('both', {
            columnType: 'String',
            dependencies: ['id'],
            getValues: (r) => r.map(() => ''),
          })
          .replaceFieldWriting('both', () => 'nope' as never),
      ),
    );
    const authors = dataSource.getCollection('authors');
    await expect(authors.update(caller, byId(1), { firstName: 'A' })).rejects.toThrow(
      'Cycle detected: firstName -> lastName -> firstName.',
    );
    await expect(authors.update(caller, byId(1), { both: 'x' })).rejects.toThrow(
      'The write handler of both should return an object or nothing.',
    );
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.importField('x', { path: 'author:books:id' })),
      ),
    ).rejects.toThrow("Invalid options.path 'author:books:id'");
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.importField('x', { path: 'author:id', readonly: false }),
        ),
      ),
    ).rejects.toThrow(
      'Readonly option should not be false because the field "author:id" is not writable',
    );
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.replaceFieldWriting('title', null as never)),
      ),
    ).rejects.toThrow('A new writing method should be provided to replace field writing');
  });

  it('reports conflicting values for one field', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        a.replaceFieldWriting('country', () => ({ firstName: 'X' })),
      ),
    );
    await expect(
      dataSource
        .getCollection('authors')
        .update(caller, byId(1), { country: 'FR', firstName: 'Y' }),
    ).rejects.toThrow('Conflict value on the field "firstName". It received several values.');
  });
});
