import { makeBookshop, makeCaller } from '../../test/fixtures';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import { DataSourceCustomizer } from './data-source-customizer';
import type { Plugin } from './plugin';
import { generateSchema } from '../schema/schema-generator';

const caller = makeCaller();

describe('DataSourceCustomizer', () => {
  it('includes, excludes and renames collections; relations follow renamed collections', async () => {
    const dataSource = await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop(), { rename: { authors: 'writers' } })
      .getDataSource();
    expect(dataSource.collections.map((c) => c.name)).toEqual(['writers', 'books']);
    expect(dataSource.getCollection('books').schema.fields.author).toMatchObject({
      foreignCollection: 'writers',
    });
    const [book] = await dataSource
      .getCollection('books')
      .list(caller, new PaginatedFilter(), new Projection('author:lastName'));
    expect(book).toEqual({ author: { lastName: 'Herbert' } });
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop(), { rename: { authors: 'writers' } })
        .customizeCollection('authors', (a) => a.disableCount())
        .getDataSource(),
    ).rejects.toThrow("Collection 'authors' has been renamed to 'writers'.");

    const only = await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop(), { include: ['books'] })
      .getDataSource();
    expect(only.collections.map((c) => c.name)).toEqual(['books']);
    // The relation to the left-out authors goes with them; the foreign key stays.
    expect(only.getCollection('books').schema.fields.author).toBeUndefined();
    expect(only.getCollection('books').schema.fields.authorId).toMatchObject({ type: 'Column' });
    const without = await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop(), { exclude: ['books'] })
      .getDataSource();
    expect(without.collections.map((c) => c.name)).toEqual(['authors']);
    expect(without.getCollection('authors').schema.fields.books).toBeUndefined();
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop(), { include: ['nope'] })
        .getDataSource(),
    ).rejects.toThrow(
      "Collection 'nope' not found. Available collections are: ['authors', 'books'].",
    );
  });

  it('refuses duplicate collections across data sources and renaming onto an existing name', async () => {
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop())
        .addDataSource(async () => makeBookshop())
        .getDataSource(),
    ).rejects.toThrow("Collection 'authors' already exists.");
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop(), { rename: { authors: 'books' } })
        .getDataSource(),
    ).rejects.toThrow('The given new collection name "books" is already defined');
  });

  it('applies customizations in call order, plugin tasks right after the plugin (depth first)', async () => {
    const order: string[] = [];
    const plugin: Plugin<{ tag: string }> = (customizer, collection, options) => {
      order.push(`plugin ${options?.tag} on ${collection?.name ?? 'agent'}`);
      customizer.customizeCollection('books', (books) =>
        books.addHook('Before', 'List', () => void order.push(`hook ${options?.tag}`)),
      );
      customizer.queue(() => void order.push(`task of ${options?.tag}`));
    };
    const customizer = new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop())
      .use(plugin, { tag: 'first' })
      .customizeCollection('books', (books) => books.use(plugin, { tag: 'second' }))
      .queue(() => void order.push('last task'));
    const dataSource = await customizer.getDataSource();
    expect(order).toEqual([
      'plugin first on agent',
      'task of first',
      'plugin second on books',
      'task of second',
      'last task',
    ]);
    await dataSource
      .getCollection('books')
      .list(caller, new PaginatedFilter(), new Projection('id'));
    expect(order.slice(-2)).toEqual(['hook first', 'hook second']);
  });

  it('rebuilds a fresh stack on every call (restart replays the queue)', async () => {
    let builds = 0;
    const customizer = new DataSourceCustomizer()
      .addDataSource(async () => {
        builds += 1;
        return makeBookshop();
      })
      .customizeCollection('books', (books) =>
        books.addField('twice', {
          columnType: 'Number',
          dependencies: ['price'],
          getValues: (r) => r.map((x) => Number(x.price) * 2),
        }),
      );
    const first = await customizer.getDataSource();
    await first.getCollection('books').create(caller, [{ title: 'Only in the first build' }]);
    const second = await customizer.getDataSource();
    expect(builds).toBe(2);
    expect(second).not.toBe(first);
    expect(
      await second
        .getCollection('books')
        .list(caller, new PaginatedFilter(), new Projection('twice')),
    ).toHaveLength(5);
    expect(second.getCollection('books').schema.fields.twice).toBeDefined();
  });

  it("declares a computed amount's currency in the schema file, kept by an imported field", async () => {
    const dataSource = await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop())
      .customizeCollection('authors', (authors) =>
        authors.addField('royalties', {
          columnType: 'Number',
          currency: 'USD',
          dependencies: ['id'],
          getValues: (r) => r.map(() => 100),
        }),
      )
      .customizeCollection('books', (books) =>
        books
          .importField('authorRoyalties', { path: 'author:royalties' })
          .addField('priceWithTax', {
            columnType: 'Number',
            currency: 'EUR',
            dependencies: ['price'],
            getValues: (r) => r.map((x) => Number(x.price) * 1.2),
          })
          .addField('twice', {
            columnType: 'Number',
            dependencies: ['price'],
            getValues: (r) => r.map((x) => Number(x.price) * 2),
          }),
      )
      .getDataSource();
    expect(dataSource.getCollection('books').schema.fields.priceWithTax).toMatchObject({
      currency: 'EUR',
    });
    const schema = await generateSchema(dataSource, {
      prefix: '/forest',
      useUnsafeActionEndpoint: false,
    });
    const fields = schema.collections.find((c) => c.name === 'books')!.fields;
    expect(fields.find((f) => f.field === 'priceWithTax')).toMatchObject({ currency: 'EUR' });
    expect(fields.find((f) => f.field === 'twice')).not.toHaveProperty('currency');
    expect(fields.find((f) => f.field === 'authorRoyalties')).toMatchObject({ currency: 'USD' });
  });

  it("declares a column's currency with setFieldCurrency; refuses a bad code or a non-number", async () => {
    const dataSource = await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop())
      .customizeCollection('books', (books) => books.setFieldCurrency('price', 'EUR'))
      .getDataSource();
    const schema = await generateSchema(dataSource, {
      prefix: '/forest',
      useUnsafeActionEndpoint: false,
    });
    const fields = schema.collections.find((c) => c.name === 'books')!.fields;
    expect(fields.find((f) => f.field === 'price')).toMatchObject({ currency: 'EUR' });
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop())
        .customizeCollection('books', (books) => books.setFieldCurrency('price', 'euro'))
        .getDataSource(),
    ).rejects.toThrow("Invalid currency 'euro' for 'books.price'");
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => makeBookshop())
        .customizeCollection('books', (books) => books.setFieldCurrency('title', 'EUR'))
        .getDataSource(),
    ).rejects.toThrow("'books.title' is not a Number field");
  });

  it('gives the schema to plugins while applying, and a clear error outside', async () => {
    const seen: string[] = [];
    await new DataSourceCustomizer()
      .addDataSource(async () => makeBookshop())
      .customizeCollection('books', (books) =>
        books.use(
          (_ds, collection) => void seen.push(...Object.keys(collection?.schema.fields ?? {})),
        ),
      )
      .getDataSource();
    expect(seen).toContain('title');
    expect(() => new DataSourceCustomizer().getCollection('books').schema).toThrow(
      "'schema' is only available while customizations are applied (e.g. inside plugins).",
    );
  });

  it('closes data sources already built when a customization fails', async () => {
    const close = jest.fn(async () => undefined);
    await expect(
      new DataSourceCustomizer()
        .addDataSource(async () => Object.assign(makeBookshop(), { close }))
        .customizeCollection('nope', (c) => c.disableCount())
        .getDataSource(),
    ).rejects.toThrow("Collection 'nope' not found");
    expect(close).toHaveBeenCalled();
  });

  it('can skip customizations naming missing schema elements, with a warning', async () => {
    const logs: string[] = [];
    const dataSource = await new DataSourceCustomizer({ ignoreMissingSchemaElementErrors: true })
      .addDataSource(async () => makeBookshop())
      .customizeCollection('books', (books) => books.removeField('gone').disableCount())
      .customizeCollection('nope', (nope) => nope.disableCount())
      .getDataSource((level, message) => logs.push(`${level}: ${message}`));
    expect(dataSource.getCollection('books').schema.countable).toBe(false);
    expect(logs).toEqual([
      expect.stringContaining(
        "Warn: A customization was skipped: The 'books.gone' field was not found.",
      ),
      expect.stringContaining("Warn: A customization was skipped: Collection 'nope' not found."),
    ]);
    await expect(
      new DataSourceCustomizer({ ignoreMissingSchemaElementErrors: true })
        .addDataSource(async () => makeBookshop())
        .customizeCollection('books', (books) => books.addFieldValidation('title', 'Present', 3))
        .getDataSource(),
    ).rejects.toThrow('Operator \'Present\' on "books.title" takes no value, got 3.');
  });
});
