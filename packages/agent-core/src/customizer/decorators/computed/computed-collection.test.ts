import { buildBookshop, makeBookshop, makeCaller } from '../../../../test/fixtures';
import { DataSourceCustomizer } from '../../data-source-customizer';
import { Aggregation } from '../../../toolkit/query/aggregation';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';

const caller = makeCaller();
const byId = new PaginatedFilter({ sort: new Sort({ field: 'id', ascending: true }) });

describe('addField (computed fields) through the whole stack', () => {
  it('computes values once per request with deduplicated partial records', async () => {
    const calls: unknown[][] = [];
    const { dataSource } = await buildBookshop((customizer) =>
      customizer.customizeCollection('authors', (authors) =>
        authors.addField('fullName', {
          columnType: 'String',
          dependencies: ['firstName', 'lastName'],
          getValues: (records) => {
            calls.push(records);
            return records.map((r) => `${r.firstName} ${r.lastName}`);
          },
        }),
      ),
    );
    const books = await dataSource
      .getCollection('books')
      .list(caller, byId, new Projection('title', 'author:fullName'));
    expect(books.map((b) => b.author)).toEqual([
      { fullName: 'Frank Herbert' },
      { fullName: 'Frank Herbert' },
      { fullName: 'Ursula Le Guin' },
      { fullName: 'Terry Pratchett' },
      null,
    ]);
    expect(calls).toEqual([
      [
        { firstName: 'Frank', lastName: 'Herbert' },
        { firstName: 'Ursula', lastName: 'Le Guin' },
        { firstName: 'Terry', lastName: 'Pratchett' },
      ],
    ]);
  });

  it('resolves computed fields over customizer relations over computed fields (the sandwich)', async () => {
    const { dataSource } = await buildBookshop((customizer) => {
      customizer.customizeCollection('authors', (authors) =>
        authors.addField('initials', {
          columnType: 'String',
          dependencies: ['firstName', 'lastName'],
          getValues: (records) =>
            records.map((r) => `${String(r.firstName)[0]}${String(r.lastName)[0]}`),
        }),
      );
      customizer.customizeCollection('books', (books) =>
        books
          .addField('authorRef', {
            columnType: 'Number',
            dependencies: ['authorId'],
            getValues: (records) => records.map((r) => r.authorId ?? null),
          })
          .emulateFieldOperator('authorRef', 'In')
          .addManyToOneRelation('writer', 'authors', { foreignKey: 'authorRef' })
          .addField('label', {
            columnType: 'String',
            dependencies: ['title', 'writer:initials'],
            getValues: (records) =>
              records.map(
                (r) =>
                  `${r.title} (${(r.writer as { initials?: string } | null)?.initials ?? '?'})`,
              ),
          }),
      );
    });
    const records = await dataSource
      .getCollection('books')
      .list(caller, byId, new Projection('label'));
    expect(records.map((r) => r.label)).toEqual([
      'Dune (FH)',
      'Children of Dune (FH)',
      'The Dispossessed (UL)',
      'Mort (TP)',
      'Anonymous (?)',
    ]);
  });

  it('aggregates on computed fields in memory', async () => {
    const { dataSource } = await buildBookshop((customizer) =>
      customizer.customizeCollection('books', (books) =>
        books.addField('priceBand', {
          columnType: 'String',
          dependencies: ['price'],
          getValues: (records) =>
            records.map((r) =>
              r.price === null ? 'none' : Number(r.price) >= 10 ? 'high' : 'low',
            ),
        }),
      ),
    );
    const rows = await dataSource
      .getCollection('books')
      .aggregate(
        caller,
        new Filter(),
        new Aggregation({ operation: 'Count', groups: [{ field: 'priceBand' }] }),
      );
    expect(rows).toEqual([
      { value: 2, group: { priceBand: 'high' } },
      { value: 2, group: { priceBand: 'low' } },
      { value: 1, group: { priceBand: 'none' } },
    ]);
  });

  it('exposes computed fields as read-only, not filterable, not sortable columns', async () => {
    const { dataSource } = await buildBookshop((customizer) =>
      customizer.customizeCollection('books', (books) =>
        books.addField('upper', {
          columnType: 'String',
          dependencies: ['title'],
          getValues: (r) => r.map(() => 'X'),
        }),
      ),
    );
    expect(dataSource.getCollection('books').schema.fields.upper).toMatchObject({
      type: 'Column',
      columnType: 'String',
      isReadOnly: true,
      isSortable: false,
      filterOperators: new Set(),
    });
  });

  it.each([
    [{ dependencies: [] }, "Computed field 'books.x' must have at least one dependency."],
    [{ dependencies: undefined }, "Computed field 'books.x' needs 'dependencies'"],
    [{ dependencies: ['nope'] }, "The 'books.nope' field was not found"],
    [
      { dependencies: ['author'] },
      "Unexpected field type: 'books.author' (found 'ManyToOne' expected 'Column').",
    ],
  ])('refuses bad definitions at start: %p', async (definition, message) => {
    await expect(
      buildBookshop((customizer) =>
        customizer.customizeCollection('books', (books) =>
          books.addField('x', {
            columnType: 'String',
            getValues: () => [],
            ...(definition as { dependencies: string[] }),
          }),
        ),
      ),
    ).rejects.toThrow(message);
  });

  it('refuses a name with spaces and a getValues returning the wrong number of values', async () => {
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.addField('full name', {
            columnType: 'String',
            dependencies: ['title'],
            getValues: () => [],
          }),
        ),
      ),
    ).rejects.toThrow("Something like 'fullName' should work.");
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) =>
        b.addField('bad', { columnType: 'String', dependencies: ['title'], getValues: () => [1] }),
      ),
    );
    await expect(
      dataSource.getCollection('books').list(caller, byId, new Projection('bad')),
    ).rejects.toThrow(
      "The getValues of computed field 'books.bad' must return an array of 5 value(s)",
    );
  });

  it("maps the deprecated 'Timeonly' type to 'Time' with a warning", async () => {
    const logs: string[] = [];
    const customizer = new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop())
      .customizeCollection('books', (books) =>
        books.addField('at', {
          columnType: 'Timeonly' as never,
          dependencies: ['id'],
          getValues: (r) => r.map(() => '10:00:00'),
        }),
      );
    const dataSource = await customizer.getDataSource((level, message) =>
      logs.push(`${level}: ${message}`),
    );
    expect(dataSource.getCollection('books').schema.fields.at).toMatchObject({
      columnType: 'Time',
    });
    expect(logs).toEqual([
      "Warn: Computed field 'books.at': the 'Timeonly' type is deprecated, 'Time' is used.",
    ]);
  });
});
