import {
  Aggregation,
  ConditionTreeLeaf,
  Filter,
  isCanopyError,
  markValidated,
  validateConditionTree,
  Page,
  PaginatedFilter,
  Projection,
  type Caller,
  type ColumnSchema,
  type PlainConditionTree,
} from '@canopy/agent-core/toolkit';
import { introspect, openSqlDataSource } from '../src/create-sql-data-source';
import type { SqlDataSource } from '../src/sql-data-source';
import { createShopDatabase, type ShopDatabase } from './fixture/shop-database';
import { HOSTILE_NAME, UUIDS, type FixtureDialect } from './fixture/shop-schema';

/** The user every test of the SQL data source acts as. */
export function caller(timezone = 'UTC'): Caller {
  return {
    id: 1,
    email: 'ops@example.com',
    firstName: 'Op',
    lastName: 'S',
    team: 'Ops',
    role: 'Admin',
    tags: {},
    timezone,
  };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the operation to fail');
}

/**
 * The suite every dialect runs: introspected schemas, every operator, joins, sorts, pages,
 * search, aggregations with time zones, writes, errors and hostile strings, on the shop fixture.
 */
export function describeSharedSuite(dialect: FixtureDialect): void {
  const postgres = dialect === 'postgres' || dialect === 'embedded-postgres';
  let database: ShopDatabase;
  let dataSource: SqlDataSource;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createShopDatabase(dialect);
    dataSource = await openSqlDataSource(database.url, { liveQueryConnections: 'main' });
    dataSource.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
  }, 120_000);

  afterAll(async () => {
    await dataSource?.close();
    await database?.drop();
  }, 60_000);

  const list = (
    collection: string,
    projection: string[],
    parts: ConstructorParameters<typeof PaginatedFilter>[0] = {},
    timezone?: string,
  ) =>
    dataSource
      .getCollection(collection)
      .list(caller(timezone), new PaginatedFilter(parts), new Projection(...projection));
  const ids = async (collection: string, tree: PlainConditionTree | null, timezone?: string) =>
    (
      await list(
        collection,
        ['id'],
        { conditionTree: tree, sort: [{ field: 'id', ascending: true }] },
        timezone,
      )
    ).map((row) => row.id);

  describe('introspection', () => {
    it('exposes every table and view as a collection, in name order', () => {
      const names = dataSource.collections.map((collection) => collection.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'addresses',
          'audit_events',
          'customers',
          'exchange_rates',
          'messages',
          'order_lines',
          'orders',
          'paid_orders',
          'products',
        ]),
      );
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(dataSource.collections.every((collection) => collection.schema.countable)).toBe(true);
      expect(names.some((name) => name.startsWith('knex_'))).toBe(false);
    });

    it('maps column types, keys, nullability, defaults and enums', () => {
      const fields = dataSource.getCollection('customers').schema.fields;
      const column = (name: string) => fields[name] as ColumnSchema;
      expect(column('id')).toMatchObject({
        columnType: 'Number',
        isPrimaryKey: true,
        isReadOnly: true,
      });
      expect(column('name')).toMatchObject({
        columnType: 'String',
        allowNull: false,
        validation: [{ operator: 'Present' }],
      });
      expect(column('tier')).toMatchObject({
        columnType: 'Enum',
        enumValues: ['bronze', 'silver', 'gold'],
      });
      expect(column('created_at').columnType).toBe('Date');
      expect(column('birthdate').columnType).toBe('Dateonly');
      expect(column('profile').columnType).toBe('Json');
      expect(column('external_id').columnType).toBe('Uuid');
      expect(column('score').columnType).toBe('Number');
      expect(column('active')).toMatchObject({ columnType: 'Boolean', defaultValue: true });
      expect(column('country').defaultValue).toBe('FR');
      // The storage's length limit (varchar(2), varchar(255)); a type without one has none.
      expect(column('country').maxLength).toBe(2);
      expect(column('email').maxLength).toBe(255);
      expect(column('profile').maxLength).toBeUndefined();
      expect(column('name').filterOperators.has('IContains')).toBe(true);
      expect(column('profile').filterOperators.has('Equal')).toBe(false);
      expect(
        (dataSource.getCollection('products').schema.fields.picture as ColumnSchema).columnType,
      ).toBe('Binary');
    });

    it('turns foreign keys into relations with the documented names', () => {
      const fields = (name: string) => dataSource.getCollection(name).schema.fields;
      expect(fields('orders').customer).toEqual({
        type: 'ManyToOne',
        foreignCollection: 'customers',
        foreignKey: 'customer_id',
        foreignKeyTarget: 'id',
      });
      expect(fields('customers').orders).toEqual({
        type: 'OneToMany',
        foreignCollection: 'orders',
        originKey: 'customer_id',
        originKeyTarget: 'id',
      });
      expect(fields('customers').address).toEqual({
        type: 'OneToOne',
        foreignCollection: 'addresses',
        originKey: 'customer_id',
        originKeyTarget: 'id',
      });
      expect(fields('orders').products).toEqual({
        type: 'ManyToMany',
        foreignCollection: 'products',
        throughCollection: 'order_lines',
        originKey: 'order_id',
        originKeyTarget: 'id',
        foreignKey: 'product_id',
        foreignKeyTarget: 'id',
      });
      expect(fields('products').orders).toMatchObject({
        type: 'ManyToMany',
        foreignCollection: 'orders',
        originKey: 'product_id',
      });
      expect(fields('order_lines').order).toMatchObject({
        type: 'ManyToOne',
        foreignCollection: 'orders',
      });
      expect(fields('customers').order_lines).toBeUndefined();
      expect(fields('messages').sender).toMatchObject({
        type: 'ManyToOne',
        foreignKey: 'sender_id',
      });
      expect(fields('messages').recipient).toMatchObject({
        type: 'ManyToOne',
        foreignKey: 'recipient_id',
      });
      expect(fields('customers').messages_through_customers_sender_id).toMatchObject({
        type: 'OneToMany',
        originKey: 'sender_id',
      });
      expect(fields('customers').messages_through_customers_recipient_id).toMatchObject({
        type: 'OneToMany',
        originKey: 'recipient_id',
      });
    });

    it('handles composite keys, tables without a primary key and views', () => {
      const rates = dataSource.getCollection('exchange_rates').schema.fields;
      expect(
        [rates.currency, rates.day].map((field) => (field as ColumnSchema).isPrimaryKey),
      ).toEqual([true, true]);
      expect(
        (dataSource.getCollection('audit_events').schema.fields.event_ref as ColumnSchema)
          .isPrimaryKey,
      ).toBe(true);
      const view = dataSource.getCollection('paid_orders').schema.fields;
      expect(Object.values(view).every((field) => (field as ColumnSchema).isReadOnly)).toBe(true);
      expect((view.id as ColumnSchema).isPrimaryKey).toBe(true);
    });

    // The embedded PostgreSQL accepts one connection, held by the open data source.
    if (dialect !== 'embedded-postgres') {
      it('introspects on its own (connect, read, disconnect) into plain JSON', async () => {
        const introspection = await introspect(database.url);
        expect(JSON.parse(JSON.stringify(introspection))).toEqual(introspection);
        expect(introspection).toMatchObject({ version: 1, source: '@canopy/datasource-sql' });
        expect(introspection.views.map((view) => view.name)).toEqual(['paid_orders']);
        const orders = introspection.tables.find((table) => table.name === 'orders');
        expect(orders?.foreignKeys).toEqual([
          { column: 'customer_id', foreignTable: 'customers', foreignColumn: 'id' },
        ]);
      });
    }

    it('gives the same collections from a serialized introspection, without reading the catalog', async () => {
      const serialized = JSON.stringify(dataSource.introspection);
      const schemas = dataSource.collections.map((collection) => [
        collection.name,
        collection.schema.fields,
      ]);
      // Embedded PostgreSQL accepts one connection: the first data source closes before the next.
      await dataSource.close();
      dataSource = await openSqlDataSource(database.url, {
        introspection: serialized,
        liveQueryConnections: 'main',
      });
      expect(
        dataSource.collections.map((collection) => [collection.name, collection.schema.fields]),
      ).toEqual(schemas);
      const before = statements.length;
      dataSource.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
      await list('customers', ['id'], { page: new Page(0, 1) });
      expect(statements.length - before).toBe(1);
    });

    if (postgres) {
      it('maps interval, timetz, point, inet and arrays deliberately, and skips money', async () => {
        const fields = dataSource.getCollection('pg_types').schema.fields;
        const column = (name: string) => fields[name] as ColumnSchema;
        expect(column('duration').columnType).toBe('String');
        expect(column('duration').filterOperators.has('Contains')).toBe(false);
        expect(column('opens_at').columnType).toBe('String');
        expect(column('location').columnType).toBe('Point');
        expect(column('ip').columnType).toBe('String');
        expect(column('tags').columnType).toEqual(['String']);
        expect(column('statuses')).toMatchObject({
          columnType: ['Enum'],
          enumValues: ['pending', 'paid', 'shipped', 'cancelled'],
        });
        expect(column('lucky').columnType).toEqual(['Number']);
        expect(fields.price).toBeUndefined();
        expect(dataSource.introspection.warnings.join('\n')).toContain('pg_types.price');
        const [row] = await list('pg_types', [
          'duration',
          'opens_at',
          'location',
          'ip',
          'tags',
          'statuses',
          'lucky',
        ]);
        expect(row).toEqual({
          duration: '1 day 02:00:00',
          opens_at: '09:30:00+02',
          location: '1.5,2',
          ip: '192.168.0.1',
          tags: ['a', 'b'],
          statuses: ['paid', 'shipped'],
          lucky: [7, 13],
        });
        expect(
          await ids('pg_types', { field: 'tags', operator: 'IncludesAll', value: ['a', 'b'] }),
        ).toEqual([1]);
        expect(
          await ids('pg_types', { field: 'statuses', operator: 'IncludesNone', value: ['paid'] }),
        ).toEqual([]);
        expect(
          await ids('pg_types', { field: 'duration', operator: 'GreaterThan', value: '1 day' }),
        ).toEqual([1]);
      });
    }
  });

  describe('values', () => {
    it('returns dates as UTC ISO strings, date-only values, json, uuids, booleans and exact numbers', async () => {
      const [ada] = await list(
        'customers',
        ['id', 'created_at', 'birthdate', 'profile', 'external_id', 'active', 'score', 'balance'],
        { conditionTree: { field: 'id', operator: 'Equal', value: 1 } },
      );
      expect(ada).toEqual({
        id: 1,
        created_at: '2024-01-15T09:30:00.000Z',
        birthdate: '1815-12-10',
        profile: { lang: 'en', vip: true },
        external_id: UUIDS[0],
        active: true,
        score: 42,
        balance: 1500.25,
      });
      const [tea] = await list('products', ['picture', 'available_at', 'price'], {
        conditionTree: { field: 'sku', operator: 'Equal', value: 'TEA-1' },
      });
      expect(tea?.picture).toEqual(Buffer.from([0, 1, 2, 255]));
      expect(tea?.available_at).toBe('2024-01-01T00:00:00.000Z');
      expect(tea?.price).toBe(4.5);
    });

    it('keeps bigint and numeric values a double cannot hold as strings', async () => {
      // SQLite stores decimals as doubles (REAL affinity): only its integers can be exact.
      const balance = dialect === 'sqlite' ? undefined : '1234567890123456.1234';
      const [created] = await dataSource
        .getCollection('customers')
        .create(caller(), [
          { name: 'Big', email: 'big@example.com', score: '9007199254740993', balance },
        ]);
      expect(created?.score).toBe('9007199254740993');
      if (balance) expect(created?.balance).toBe(balance);
      const found = await list('customers', ['score'], {
        conditionTree: { field: 'score', operator: 'Equal', value: '9007199254740993' },
      });
      expect(found).toEqual([{ score: '9007199254740993' }]);
      await dataSource.getCollection('customers').delete(
        caller(),
        new Filter({
          conditionTree: { field: 'email', operator: 'Equal', value: 'big@example.com' },
        }),
      );
    });
  });

  describe('operators', () => {
    const cases: Array<[string, string, PlainConditionTree, unknown[]]> = [
      ['Equal', 'customers', { field: 'tier', operator: 'Equal', value: 'gold' }, [1]],
      [
        'Equal is case-sensitive',
        'customers',
        { field: 'email', operator: 'Equal', value: 'ADA@example.com' },
        [],
      ],
      ['Equal null', 'customers', { field: 'tier', operator: 'Equal', value: null }, [3]],
      [
        'NotEqual includes nulls',
        'customers',
        { field: 'tier', operator: 'NotEqual', value: 'gold' },
        [2, 3, 4],
      ],
      [
        'In with null',
        'customers',
        { field: 'tier', operator: 'In', value: ['silver', null] },
        [2, 3],
      ],
      ['In empty', 'customers', { field: 'tier', operator: 'In', value: [] }, []],
      [
        'NotIn',
        'customers',
        { field: 'tier', operator: 'NotIn', value: ['silver', 'gold'] },
        [3, 4],
      ],
      [
        'NotIn with null',
        'customers',
        { field: 'tier', operator: 'NotIn', value: ['silver', null] },
        [1, 4],
      ],
      ['NotIn empty', 'customers', { field: 'tier', operator: 'NotIn', value: [] }, [1, 2, 3, 4]],
      ['Present', 'orders', { field: 'notes', operator: 'Present' }, [1, 3]],
      ['Blank', 'orders', { field: 'notes', operator: 'Blank' }, [2, 4, 5]],
      ['Missing', 'orders', { field: 'notes', operator: 'Missing' }, [2, 5]],
      ['LessThan', 'orders', { field: 'amount', operator: 'LessThan', value: 20 }, [4]],
      [
        'LessThanOrEqual',
        'orders',
        { field: 'amount', operator: 'LessThanOrEqual', value: 20 },
        [2, 4],
      ],
      ['GreaterThan', 'orders', { field: 'amount', operator: 'GreaterThan', value: 50.25 }, [1]],
      [
        'GreaterThanOrEqual',
        'orders',
        { field: 'amount', operator: 'GreaterThanOrEqual', value: 50.25 },
        [1, 3],
      ],
      ['Contains', 'customers', { field: 'name', operator: 'Contains', value: 'Love' }, [1]],
      [
        'Contains is case-sensitive',
        'customers',
        { field: 'name', operator: 'Contains', value: 'love' },
        [],
      ],
      [
        'Contains escapes wildcards',
        'customers',
        { field: 'name', operator: 'Contains', value: '%_' },
        [3],
      ],
      ['StartsWith', 'customers', { field: 'name', operator: 'StartsWith', value: 'Gra' }, [2]],
      [
        'EndsWith',
        'customers',
        { field: 'email', operator: 'EndsWith', value: 'e@example.com' },
        [2, 4],
      ],
      ['IContains', 'customers', { field: 'name', operator: 'IContains', value: 'HOPPER' }, [2]],
      ['IStartsWith', 'customers', { field: 'name', operator: 'IStartsWith', value: 'ada' }, [1]],
      ['IEndsWith', 'customers', { field: 'name', operator: 'IEndsWith', value: 'LACE' }, [1]],
      [
        'NotContains includes nulls',
        'orders',
        { field: 'notes', operator: 'NotContains', value: 'Gift' },
        [1, 2, 4, 5],
      ],
      [
        'NotIContains',
        'orders',
        { field: 'notes', operator: 'NotIContains', value: 'gift' },
        [1, 2, 4, 5],
      ],
      ['Like', 'products', { field: 'label', operator: 'Like', value: '%tea' }, [1]],
      [
        'Like is case-sensitive',
        'products',
        { field: 'label', operator: 'Like', value: 'green%' },
        [],
      ],
      ['ILike', 'products', { field: 'label', operator: 'ILike', value: 'GREEN%' }, [1]],
      ['Match', 'products', { field: 'sku', operator: 'Match', value: '^[A-Z]{3}-[0-9]$' }, [1, 2]],
      ['LongerThan', 'products', { field: 'label', operator: 'LongerThan', value: 5 }, [1, 3]],
      ['ShorterThan', 'products', { field: 'label', operator: 'ShorterThan', value: 4 }, [2]],
      [
        'Before',
        'orders',
        { field: 'placed_at', operator: 'Before', value: '2024-02-01T00:00:00Z' },
        [1, 4],
      ],
      [
        'After',
        'orders',
        { field: 'placed_at', operator: 'After', value: '2024-02-15T10:00:00.000Z' },
        [3],
      ],
      [
        'Before on a date',
        'orders',
        { field: 'delivered_on', operator: 'Before', value: '2024-02-02' },
        [4],
      ],
      ['Past', 'orders', { field: 'placed_at', operator: 'Past' }, [1, 2, 3, 4]],
      ['Future', 'orders', { field: 'placed_at', operator: 'Future' }, []],
      [
        'BeforeXHoursAgo',
        'orders',
        { field: 'placed_at', operator: 'BeforeXHoursAgo', value: 1 },
        [1, 2, 3, 4],
      ],
      [
        'AfterXHoursAgo',
        'orders',
        { field: 'placed_at', operator: 'AfterXHoursAgo', value: 1 },
        [],
      ],
      ['Today', 'orders', { field: 'placed_at', operator: 'Today' }, []],
      [
        'PreviousXDays',
        'orders',
        { field: 'delivered_on', operator: 'PreviousXDays', value: 3 },
        [],
      ],
      [
        'relation path',
        'orders',
        { field: 'customer:name', operator: 'Equal', value: 'Grace Hopper' },
        [3, 5],
      ],
      [
        'two relations deep',
        'orders',
        { field: 'customer:address:city', operator: 'Equal', value: 'London' },
        [1, 2],
      ],
      [
        'Or branch',
        'orders',
        {
          aggregator: 'Or',
          conditions: [
            { field: 'status', operator: 'Equal', value: 'pending' },
            { field: 'amount', operator: 'Equal', value: 10 },
          ],
        },
        [2, 4],
      ],
      [
        'And branch',
        'orders',
        {
          aggregator: 'And',
          conditions: [
            { field: 'status', operator: 'Equal', value: 'paid' },
            { field: 'amount', operator: 'GreaterThan', value: 60 },
          ],
        },
        [1],
      ],
      ['empty Or matches nothing', 'orders', { aggregator: 'Or', conditions: [] }, []],
      [
        'Equal on uuid',
        'customers',
        { field: 'external_id', operator: 'Equal', value: UUIDS[1] },
        [2],
      ],
      ['Equal on boolean', 'customers', { field: 'active', operator: 'Equal', value: false }, [3]],
      [
        'Equal on binary',
        'products',
        { field: 'picture', operator: 'Equal', value: Buffer.from([0, 1, 2, 255]) },
        [1],
      ],
      [
        'In on uuid',
        'customers',
        { field: 'external_id', operator: 'In', value: UUIDS },
        [1, 2, 4],
      ],
      [
        'GreaterThan on a date',
        'orders',
        { field: 'delivered_on', operator: 'GreaterThan', value: '2024-02-02' },
        [3],
      ],
      [
        'Equal on a relation enum',
        'orders',
        { field: 'customer:tier', operator: 'Equal', value: 'silver' },
        [3, 5],
      ],
      [
        'Equal on a composite key part',
        'exchange_rates',
        { field: 'currency', operator: 'Equal', value: 'USD' },
        [],
      ],
    ];

    it.each(cases.filter(([, collection]) => collection !== 'exchange_rates'))(
      '%s',
      async (_name, collection, tree, expected) => {
        expect(await ids(collection, tree)).toEqual(expected);
      },
    );

    it('reads Present and Blank on enums and dates given without offset in the caller zone', async () => {
      expect(await ids('customers', { field: 'tier', operator: 'Present' })).toEqual([1, 2, 4]);
      expect(await ids('customers', { field: 'tier', operator: 'Blank' })).toEqual([3]);
      const paris = {
        field: 'placed_at',
        operator: 'Equal' as const,
        value: '2024-02-15T11:00:00',
      };
      expect(await ids('orders', paris, 'Europe/Paris')).toEqual([2]);
      expect(await ids('orders', paris, 'UTC')).toEqual([]);
      expect(
        await ids('orders', {
          field: 'placed_at',
          operator: 'In',
          value: ['2024-02-15T10:00:00Z'],
        }),
      ).toEqual([2]);
    });

    it('quotes identifiers that are reserved words, mixed case or contain quotes', async () => {
      const odd = 'Odd "Table" Name';
      expect(
        await list(odd, ['select', 'CamelCase', "it's `quoted`"], {
          conditionTree: { field: 'select', operator: 'In', value: ['from', 'where'] },
          sort: [{ field: 'CamelCase', ascending: true }],
        }),
      ).toEqual([
        { select: 'where', CamelCase: 1, "it's `quoted`": 'b' },
        { select: 'from', CamelCase: 2, "it's `quoted`": 'a' },
      ]);
      const [created] = await dataSource
        .getCollection(odd)
        .create(caller(), [{ select: 'group', CamelCase: 3, "it's `quoted`": 'c' }]);
      expect(created).toMatchObject({ select: 'group', CamelCase: 3 });
      await dataSource
        .getCollection(odd)
        .delete(
          caller(),
          new Filter({ conditionTree: { field: 'CamelCase', operator: 'Equal', value: 3 } }),
        );
      const counts = await dataSource
        .getCollection(odd)
        .aggregate(
          caller(),
          new Filter(),
          new Aggregation({ operation: 'Count', groups: [{ field: 'select' }] }),
        );
      expect(counts).toHaveLength(2);
    });

    it('filters a composite-key table', async () => {
      const rows = await list('exchange_rates', ['currency', 'day', 'rate'], {
        conditionTree: { field: 'currency', operator: 'Equal', value: 'EUR' },
        sort: [{ field: 'day', ascending: false }],
      });
      expect(rows).toEqual([
        { currency: 'EUR', day: '2024-01-02', rate: 1.2 },
        { currency: 'EUR', day: '2024-01-01', rate: 1.1 },
      ]);
    });

    it('computes relative periods in the caller time zone', async () => {
      const now = new Date();
      const id = (
        await dataSource
          .getCollection('orders')
          .create(caller(), [{ customer_id: 4, status: 'pending', placed_at: now.toISOString() }])
      )[0]?.id;
      try {
        expect(
          await ids('orders', { field: 'placed_at', operator: 'Today' }, 'Pacific/Kiritimati'),
        ).toEqual([id]);
        expect(
          await ids('orders', { field: 'placed_at', operator: 'PreviousXDaysToDate', value: 2 }),
        ).toEqual([id]);
        expect(await ids('orders', { field: 'placed_at', operator: 'Yesterday' })).toEqual([]);
      } finally {
        await dataSource
          .getCollection('orders')
          .delete(
            caller(),
            new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: id } }),
          );
      }
    });

    it('rejects a value of the wrong type and an unknown field before any SQL runs', async () => {
      const before = statements.length;
      const wrongType = await failure(() =>
        ids('orders', { field: 'amount', operator: 'Equal', value: 'ten' }),
      );
      expect(isCanopyError(wrongType, { family: 'validation' })).toBe(true);
      expect(wrongType.message).toContain('amount');
      const unknown = await failure(() =>
        ids('orders', { field: 'nope', operator: 'Equal', value: 1 }),
      );
      expect(isCanopyError(unknown, { family: 'validation' })).toBe(true);
      expect(unknown.message).toContain('nope');
      const badEnum = await failure(() =>
        ids('orders', { field: 'status', operator: 'In', value: ['paid', 'lost'] }),
      );
      expect(badEnum.message).toContain('lost');
      const badOperator = await failure(() =>
        ids('customers', { field: 'profile', operator: 'Contains', value: 'x' }),
      );
      expect(isCanopyError(badOperator, { family: 'validation' })).toBe(true);
      expect(statements.length).toBe(before);
    });
  });

  describe('list', () => {
    it('joins to-one relations of the projection in the same query, null when missing', async () => {
      const before = statements.length;
      const rows = await list('orders', ['id', 'customer:name', 'customer:address:city'], {
        sort: [{ field: 'id', ascending: true }],
        page: new Page(2, 2),
      });
      expect(statements.length - before).toBe(1);
      expect(rows).toEqual([
        { id: 3, customer: { name: 'Grace Hopper', address: { city: 'Arlington' } } },
        { id: 4, customer: { name: HOSTILE_NAME, address: null } },
      ]);
    });

    it('refuses an invalid page or an unsortable field', async () => {
      const page = await failure(() => list('orders', ['id'], { page: new Page(-1, 10) }));
      expect(isCanopyError(page, { family: 'validation' })).toBe(true);
      const sort = await failure(() =>
        list('customers', ['id'], { sort: [{ field: 'profile', ascending: true }] }),
      );
      expect(sort.message).toContain('not sortable');
    });

    it('sorts on relation fields and paginates', async () => {
      const rows = await list('orders', ['id'], {
        sort: [
          { field: 'customer:email', ascending: false },
          { field: 'id', ascending: true },
        ],
        page: new Page(1, 3),
      });
      expect(rows.map((row) => row.id)).toEqual([3, 5, 1]);
    });

    it('searches strings case-insensitively, numbers, enums and uuids; extended search reaches relations', async () => {
      const search = async (collection: string, text: string, extended = false) =>
        (
          await list(collection, ['id'], {
            search: text,
            searchExtended: extended,
            sort: [{ field: 'id', ascending: true }],
          })
        ).map((row) => row.id);
      expect(await search('customers', 'hopper')).toEqual([2]);
      expect(await search('customers', 'GOLD')).toEqual([1]);
      expect(await search('customers', UUIDS[2] as string)).toEqual([4]);
      expect(await search('customers', 'example -ada')).toEqual([2, 3, 4]);
      expect(await search('orders', 'lovelace', true)).toEqual([1, 2]);
      expect(await search('orders', 'lovelace')).toEqual([]);
      expect(await search('customers', '"DROP TABLE customers; --"')).toEqual([3]);
    });
  });

  describe('statement cache', () => {
    const sqlOf = async (run: () => Promise<unknown>) => {
      const before = statements.length;
      const result = await run();
      expect(statements.length - before).toBe(1);
      return { sql: statements[statements.length - 1] as string, result };
    };
    const customerIds = (tree: PlainConditionTree | null, page?: Page, ascending = true) =>
      sqlOf(async () =>
        (
          await list('customers', ['id', 'name'], {
            conditionTree: tree,
            sort: [{ field: 'id', ascending }],
            page,
          })
        ).map((row) => row.id),
      );

    it('compiles a shape once, then binds the new values (hostile ones too) to the same SQL', async () => {
      const stats = dataSource.statementCache;
      const gold = await customerIds({ field: 'tier', operator: 'Equal', value: 'gold' });
      expect(dataSource.statementCache.misses - stats.misses).toBe(1);
      expect(dataSource.statementCache.size - stats.size).toBe(1);
      const silver = await customerIds({ field: 'tier', operator: 'Equal', value: 'silver' });
      expect(dataSource.statementCache.hits - stats.hits).toBe(1);
      expect(dataSource.statementCache.size - stats.size).toBe(1);
      expect(silver.sql).toBe(gold.sql);
      expect(gold.result).toEqual([1]);
      expect(silver.result).toEqual([2]);

      const ada = await customerIds({ field: 'name', operator: 'Equal', value: 'Ada Lovelace' });
      const hostile = await customerIds({ field: 'name', operator: 'Equal', value: HOSTILE_NAME });
      expect(hostile.sql).toBe(ada.sql);
      expect([ada.result, hostile.result]).toEqual([[1], [3]]);
      expect(await ids('customers', null)).toEqual([1, 2, 3, 4]);
    });

    it('gives shapes whose SQL differs their own statement, whatever was cached first', async () => {
      const tier = (value: unknown) => ({ field: 'tier', operator: 'Equal', value }) as const;
      const valued = await customerIds(tier('bronze'));
      const nulled = await customerIds(tier(null));
      expect(nulled.sql).not.toBe(valued.sql);
      expect([valued.result, nulled.result]).toEqual([[4], [3]]);

      const two = await customerIds({ field: 'id', operator: 'In', value: [1, 2] });
      const three = await customerIds({ field: 'id', operator: 'In', value: [1, 2, 4] });
      const withNull = await customerIds({ field: 'tier', operator: 'In', value: ['gold', null] });
      expect(new Set([two.sql, three.sql, withNull.sql]).size).toBe(3);
      expect([two.result, three.result, withNull.result]).toEqual([
        [1, 2],
        [1, 2, 4],
        [1, 3],
      ]);

      const sensitive = await customerIds({ field: 'name', operator: 'Match', value: '/^ada/' });
      const insensitive = await customerIds({ field: 'name', operator: 'Match', value: '/^ada/i' });
      expect([sensitive.result, insensitive.result]).toEqual([[], [1]]);
      expect(
        (await customerIds({ field: 'name', operator: 'Match', value: '/^ada/' })).result,
      ).toEqual([]);

      const first = await customerIds(null, new Page(0, 2));
      const second = await customerIds(null, new Page(2, 2));
      const rest = await customerIds(null, new Page(1, null));
      const descending = await customerIds(null, new Page(0, 2), false);
      // (An offset without a limit is `LIMIT <all> OFFSET ?` on MySQL and SQLite: the SQL of a
      // page with both, with other values bound.)
      expect(new Set([first.sql, second.sql, descending.sql]).size).toBe(3);
      expect([first.result, second.result, rest.result, descending.result]).toEqual([
        [1, 2],
        [3, 4],
        [2, 3, 4],
        [4, 3],
      ]);
      const projected = await sqlOf(() =>
        list('customers', ['id', 'email'], {
          sort: [{ field: 'id', ascending: true }],
          page: new Page(0, 2),
        }),
      );
      expect(projected.sql).not.toBe(first.sql);
      expect(projected.result).toEqual([
        { id: 1, email: 'ada@example.com' },
        { id: 2, email: 'grace@example.com' },
      ]);
    });

    it('caches aggregations by shape too', async () => {
      const status = (value: string) =>
        ({ field: 'status', operator: 'Equal', value }) as PlainConditionTree;
      const count = (value: string) =>
        sqlOf(() =>
          dataSource
            .getCollection('orders')
            .aggregate(
              caller(),
              new Filter({ conditionTree: status(value) }),
              new Aggregation({ operation: 'Count' }),
            ),
        );
      const listed = async (value: string) =>
        (await list('orders', ['id'], { conditionTree: status(value) })).length;
      const paid = await count('paid');
      const hits = dataSource.statementCache.hits;
      const pending = await count('pending');
      expect(dataSource.statementCache.hits).toBe(hits + 1);
      expect(pending.sql).toBe(paid.sql);
      expect(paid.result).toEqual([{ value: await listed('paid'), group: {} }]);
      expect(pending.result).toEqual([{ value: await listed('pending'), group: {} }]);
      expect(await listed('paid')).not.toBe(await listed('pending'));
    });

    if (postgres) {
      it('reports a database error of a cached statement like a compiled one, and releases its connection', async () => {
        const errors: unknown[] = [];
        const onError = (error: unknown) => errors.push(error);
        dataSource.knex.on('query-error', onError);
        // Valid for the schema (a number of characters), refused by PostgreSQL (the length is
        // compared as an integer, and the value is out of its range). An id out of the column's
        // range is refused by the schema's validation, before any SQL (test below).
        const outOfRange = () =>
          failure(() =>
            list('customers', ['id'], {
              conditionTree: { field: 'name', operator: 'LongerThan', value: 99_999_999_999 },
            }),
          );
        const compiled = (await outOfRange()) as Error & { code?: string };
        const cached = (await outOfRange()) as Error & { code?: string };
        expect([compiled.code, cached.code]).toEqual(['22003', '22003']);
        expect(cached.message).toContain('out of range');
        expect(cached.message).toContain('select');
        // More failures than the pool has connections (10): each one was released.
        for (let index = 0; index < 10; index += 1) await outOfRange();
        dataSource.knex.off('query-error', onError);
        expect(errors).toHaveLength(12);
        expect(await ids('customers', { field: 'id', operator: 'Equal', value: 2 })).toEqual([2]);
      });
    }

    it('trusts a tree validated where the request entered: no second walk', async () => {
      const valid = new ConditionTreeLeaf('id', 'Equal', 2);
      validateConditionTree(dataSource.getCollection('customers'), valid);
      expect(await ids('customers', valid as never)).toEqual([2]);
      // A wrong value in a tree marked as validated is not looked at again here: whatever the
      // database answers, it is not this collection's validation error.
      const trusted = markValidated(new ConditionTreeLeaf('id', 'Equal', 'two'));
      const outcome = await ids('customers', trusted as never).then(
        () => null,
        (error: unknown) => error,
      );
      expect(outcome === null || !isCanopyError(outcome, { family: 'validation' })).toBe(true);
      const raw = await failure(() =>
        ids('customers', { field: 'id', operator: 'Equal', value: 'two' }),
      );
      expect(isCanopyError(raw, { family: 'validation' })).toBe(true);
    });

    it('refuses an integer out of the column range before any SQL runs', async () => {
      const before = statements.length;
      const outOfRange = await failure(() =>
        ids('customers', { field: 'id', operator: 'Equal', value: 1e20 }),
      );
      expect(isCanopyError(outOfRange, { family: 'validation' })).toBe(true);
      expect(outOfRange.message).toContain('out of range for "customers.id"');
      expect(statements.length).toBe(before);
    });

    it('keeps at most statementCacheSize statements', async () => {
      // Embedded PostgreSQL accepts one connection: the data source closes before the next.
      await dataSource.close();
      const small = await openSqlDataSource(database.url, { statementCacheSize: 2 });
      try {
        const shapes = ['name', 'email', 'country'].map(
          (field) => () =>
            small.getCollection('customers').list(
              caller(),
              new PaginatedFilter({
                conditionTree: { field, operator: 'Present' },
                sort: [{ field: 'id', ascending: true }],
              }),
              new Projection('id'),
            ),
        );
        for (const run of shapes) await run();
        expect(small.statementCache).toMatchObject({ size: 2, capacity: 2, misses: 3, hits: 0 });
        expect((await shapes[2]?.())?.map((row) => row.id)).toEqual([1, 2, 4]);
        expect(small.statementCache).toMatchObject({ size: 2, hits: 1 });
        // The first shape was dropped when the third came in: it compiles again.
        expect((await shapes[0]?.())?.map((row) => row.id)).toEqual([1, 2, 3, 4]);
        expect(small.statementCache).toMatchObject({ size: 2, misses: 4 });
      } finally {
        await small.close();
        dataSource = await openSqlDataSource(database.url, { liveQueryConnections: 'main' });
        dataSource.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
      }
      const invalid = await failure(() =>
        openSqlDataSource(database.url, { statementCacheSize: -1 }),
      );
      expect(invalid.message).toContain('statementCacheSize');
    });
  });

  describe('aggregate', () => {
    const aggregate = (
      collection: string,
      aggregation: ConstructorParameters<typeof Aggregation>[0],
      timezone = 'UTC',
      tree: PlainConditionTree | null = null,
      limit?: number,
    ) =>
      dataSource
        .getCollection(collection)
        .aggregate(
          caller(timezone),
          new Filter({ conditionTree: tree }),
          new Aggregation(aggregation),
          limit,
        );

    it('counts, sums, averages and finds extremes', async () => {
      expect(await aggregate('orders', { operation: 'Count' })).toEqual([{ value: 5, group: {} }]);
      expect(await aggregate('orders', { operation: 'Count', field: 'amount' })).toEqual([
        { value: 4, group: {} },
      ]);
      expect(await aggregate('orders', { operation: 'Sum', field: 'amount' })).toEqual([
        { value: 180.75, group: {} },
      ]);
      expect(
        await aggregate('orders', { operation: 'Avg', field: 'amount' }, 'UTC', {
          field: 'status',
          operator: 'Equal',
          value: 'paid',
        }),
      ).toEqual([{ value: 75.375, group: {} }]);
      expect(await aggregate('orders', { operation: 'Max', field: 'placed_at' })).toEqual([
        { value: '2024-03-31T22:30:00.000Z', group: {} },
      ]);
      expect(await aggregate('orders', { operation: 'Min', field: 'amount' })).toEqual([
        { value: 10, group: {} },
      ]);
    });

    it('groups by fields and relation fields, ordered by value, limited', async () => {
      expect(
        await aggregate('orders', {
          operation: 'Sum',
          field: 'amount',
          groups: [{ field: 'status' }],
        }),
      ).toEqual([
        { value: 150.75, group: { status: 'paid' } },
        { value: 20, group: { status: 'pending' } },
        { value: 10, group: { status: 'shipped' } },
        { value: 0, group: { status: 'cancelled' } },
      ]);
      expect(
        await aggregate(
          'orders',
          { operation: 'Count', groups: [{ field: 'customer:name' }] },
          'UTC',
          null,
          2,
        ),
      ).toEqual(
        // Both have two orders: the order of ties is the database's.
        expect.arrayContaining([
          { value: 2, group: { 'customer:name': 'Ada Lovelace' } },
          { value: 2, group: { 'customer:name': 'Grace Hopper' } },
        ]),
      );
    });

    it.each([
      [
        'Year',
        'UTC',
        [
          { value: 3, group: { placed_at: '2024-01-01' } },
          { value: 1, group: { placed_at: '2023-01-01' } },
        ],
      ],
      ['Year', 'Europe/Paris', [{ value: 4, group: { placed_at: '2024-01-01' } }]],
      [
        'Month',
        'UTC',
        [
          { value: 1, group: { placed_at: '2023-12-01' } },
          { value: 1, group: { placed_at: '2024-01-01' } },
          { value: 1, group: { placed_at: '2024-02-01' } },
          { value: 1, group: { placed_at: '2024-03-01' } },
        ],
      ],
      [
        'Month',
        'Europe/Paris',
        [
          { value: 1, group: { placed_at: '2024-01-01' } },
          { value: 2, group: { placed_at: '2024-02-01' } },
          { value: 1, group: { placed_at: '2024-04-01' } },
        ],
      ],
      [
        'Quarter',
        'Europe/Paris',
        [
          { value: 3, group: { placed_at: '2024-01-01' } },
          { value: 1, group: { placed_at: '2024-04-01' } },
        ],
      ],
      [
        'Week',
        'Europe/Paris',
        [
          { value: 1, group: { placed_at: '2024-01-01' } },
          { value: 1, group: { placed_at: '2024-01-29' } },
          { value: 1, group: { placed_at: '2024-02-12' } },
          { value: 1, group: { placed_at: '2024-04-01' } },
        ],
      ],
      [
        'Day',
        'America/New_York',
        [
          { value: 1, group: { placed_at: '2023-12-31' } },
          { value: 1, group: { placed_at: '2024-01-31' } },
          { value: 1, group: { placed_at: '2024-02-15' } },
          { value: 1, group: { placed_at: '2024-03-31' } },
        ],
      ],
    ] as const)('groups by %s in %s', async (operation, timezone, expected) => {
      const rows = await aggregate(
        'orders',
        { operation: 'Count', groups: [{ field: 'placed_at', operation }] },
        timezone,
        { field: 'placed_at', operator: 'Present' },
      );
      const byBucket = (
        a: { group: Record<string, unknown> },
        b: { group: Record<string, unknown> },
      ) => String(a.group.placed_at).localeCompare(String(b.group.placed_at));
      expect([...rows].sort(byBucket)).toEqual([...expected].sort(byBucket));
      expect(rows.map((row) => row.value)).toEqual(
        [...rows.map((row) => row.value)].sort((a, b) => Number(b) - Number(a)),
      );
    });

    it('groups a date-only column without shifting it', async () => {
      const rows = await aggregate(
        'orders',
        { operation: 'Count', groups: [{ field: 'delivered_on', operation: 'Month' }] },
        'Pacific/Kiritimati',
        { field: 'delivered_on', operator: 'Present' },
      );
      expect(rows.map((row) => row.group.delivered_on).sort()).toEqual([
        '2024-01-01',
        '2024-02-01',
        '2024-04-01',
      ]);
    });
  });

  describe('writes', () => {
    const customers = () => dataSource.getCollection('customers');

    it('creates records and returns generated keys and defaults', async () => {
      const before = statements.length;
      const created = await customers().create(caller(), [
        {
          name: 'New One',
          email: 'new1@example.com',
          created_at: '2024-05-01T10:00:00+02:00',
          tier: 'bronze',
        },
        { name: 'New Two', email: 'new2@example.com', profile: { nested: ['x'] } },
      ]);
      expect(created).toHaveLength(2);
      // RETURNING everywhere (MariaDB included): no row is read back with a SELECT.
      const sql = statements.slice(before).map((statement) => statement.toLowerCase());
      expect(sql.filter((statement) => statement.startsWith('insert'))).not.toHaveLength(0);
      expect(sql.filter((statement) => statement.startsWith('select'))).toEqual([]);
      expect(created[0]).toMatchObject({
        name: 'New One',
        created_at: '2024-05-01T08:00:00.000Z',
        active: true,
        country: 'FR',
        tier: 'bronze',
      });
      expect(created[1]).toMatchObject({ name: 'New Two', profile: { nested: ['x'] } });
      expect(typeof created[0]?.id).toBe('number');
      expect(created[1]?.id).not.toBe(created[0]?.id);
    });

    it('updates by filter in one statement, also through a relation', async () => {
      await customers().update(
        caller(),
        new Filter({ conditionTree: { field: 'email', operator: 'StartsWith', value: 'new' } }),
        { tier: 'silver' },
      );
      expect(
        await ids('customers', { field: 'email', operator: 'StartsWith', value: 'new' }),
      ).toHaveLength(2);
      expect(
        await ids('customers', {
          aggregator: 'And',
          conditions: [
            { field: 'email', operator: 'StartsWith', value: 'new' },
            { field: 'tier', operator: 'Equal', value: 'silver' },
          ],
        }),
      ).toHaveLength(2);

      const before = statements.length;
      await dataSource.getCollection('orders').update(
        caller(),
        new Filter({
          conditionTree: {
            field: 'customer:email',
            operator: 'Equal',
            value: 'grace@example.com',
          },
        }),
        { notes: 'VIP' },
      );
      expect(statements.length - before).toBe(1);
      expect(await ids('orders', { field: 'notes', operator: 'Equal', value: 'VIP' })).toEqual([
        3, 5,
      ]);
    });

    it('deletes by filter, also through a relation', async () => {
      await customers().delete(
        caller(),
        new Filter({
          conditionTree: { field: 'email', operator: 'Equal', value: 'new2@example.com' },
        }),
      );
      expect(
        await ids('customers', { field: 'email', operator: 'StartsWith', value: 'new' }),
      ).toHaveLength(1);
      const orderId = (
        await dataSource
          .getCollection('orders')
          .create(caller(), [{ customer_id: 4, status: 'pending' }])
      )[0]?.id;
      await dataSource.getCollection('orders').delete(
        caller(),
        new Filter({
          conditionTree: {
            aggregator: 'And',
            conditions: [
              { field: 'customer:email', operator: 'Equal', value: 'zoe@example.com' },
              { field: 'id', operator: 'Equal', value: orderId },
            ],
          },
        }),
      );
      expect(await ids('orders', { field: 'id', operator: 'Equal', value: orderId })).toEqual([]);
    });

    it('refuses a value longer than its column, naming the limit, before any SQL runs', async () => {
      const before = statements.length;
      const tooLong = await failure(() =>
        customers().create(caller(), [
          { name: 'Long Country', email: 'long-country@example.com', country: 'FRA' },
        ]),
      );
      expect(isCanopyError(tooLong, { family: 'validation' })).toBe(true);
      expect(tooLong.message).toBe(
        '"customers.country" takes at most 2 characters; the value given has 3.',
      );
      const longName = await failure(() =>
        customers().update(
          caller(),
          new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: 1 } }),
          { name: 'x'.repeat(300) },
        ),
      );
      expect(longName.message).toBe(
        '"customers.name" takes at most 255 characters; the value given has 300.',
      );
      expect(statements.slice(before)).toEqual([]);
      const [created] = await customers().create(caller(), [
        { name: 'Just Fits', email: 'just-fits@example.com', country: 'ÉS' },
      ]);
      expect(created?.country).toBe('ÉS');
    });

    it('writes a table with a composite key and no generated column', async () => {
      const rates = dataSource.getCollection('exchange_rates');
      const key = {
        aggregator: 'And' as const,
        conditions: [
          { field: 'currency', operator: 'Equal' as const, value: 'GBP' },
          { field: 'day', operator: 'Equal' as const, value: '2024-01-03' },
        ],
      };
      expect(
        await rates.create(caller(), [{ currency: 'GBP', day: '2024-01-03', rate: '0.8612' }]),
      ).toEqual([{ currency: 'GBP', day: '2024-01-03', rate: 0.8612 }]);
      await rates.update(caller(), new Filter({ conditionTree: key }), { rate: 0.9 });
      expect(await list('exchange_rates', ['rate'], { conditionTree: key })).toEqual([
        { rate: 0.9 },
      ]);
      await rates.delete(caller(), new Filter({ conditionTree: key }));
      expect(await list('exchange_rates', ['rate'], { conditionTree: key })).toEqual([]);
    });

    it('turns constraint violations into validation errors naming the constraint', async () => {
      const unique = await failure(() =>
        customers().create(caller(), [{ name: 'Dup', email: 'ada@example.com' }]),
      );
      expect(isCanopyError(unique, { family: 'validation' })).toBe(true);
      expect(unique.message).toMatch(/unicity constraint.*(email|customers_email_unique)/);
      const foreignKey = await failure(() =>
        dataSource.getCollection('orders').create(caller(), [{ customer_id: 999, status: 'paid' }]),
      );
      expect(foreignKey.message).toContain('foreign key constraint');
      const referenced = await failure(() =>
        customers().delete(
          caller(),
          new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: 1 } }),
        ),
      );
      expect(referenced.message).toContain('no records are linked');
      const notNull = await failure(() =>
        customers().create(caller(), [{ email: 'nameless@example.com' }]),
      );
      expect(isCanopyError(notNull, { family: 'validation' })).toBe(true);
      expect(notNull.message).toMatch(/name/);
      const readOnly = await failure(() =>
        dataSource.getCollection('paid_orders').create(caller(), [{ amount: 1 }]),
      );
      expect(isCanopyError(readOnly, { family: 'unprocessable' })).toBe(true);
      const wrongType = await failure(() =>
        customers().create(caller(), [{ name: 'X', email: 'x@example.com', score: 'many' }]),
      );
      expect(wrongType.message).toContain('score');
    });

    if (postgres) {
      it('refuses NUL characters, which PostgreSQL cannot store, before any SQL runs', async () => {
        const before = statements.length;
        const write = await failure(() =>
          customers().create(caller(), [{ name: 'nul\u0000byte', email: 'nul@example.com' }]),
        );
        expect(isCanopyError(write, { family: 'validation' })).toBe(true);
        expect(write.message).toContain('customers.name');
        const filter = await failure(() =>
          ids('customers', { field: 'name', operator: 'Contains', value: '\u0000' }),
        );
        expect(filter.message).toContain('NUL character');
        expect(statements.length).toBe(before);
      });
    }

    it('stores and finds hostile strings intact', async () => {
      const hostile = [
        "Robert'); DROP TABLE customers;--",
        'back\\slash \\\\ and \\%',
        'quote " double \' single ` backtick',
        'emoji 👩‍💻🌿 and Ünïcödé',
        'x'.repeat(5000),
      ];
      if (!postgres) hostile.push('nul\u0000byte');
      const created = await dataSource.getCollection('orders').create(
        caller(),
        hostile.map((notes) => ({ customer_id: 4, status: 'pending', notes })),
      );
      for (const [index, notes] of hostile.entries()) {
        expect(created[index]?.notes).toBe(notes);
        const found = await list('orders', ['id', 'notes'], {
          conditionTree: { field: 'notes', operator: 'Equal', value: notes },
        });
        expect(found).toEqual([{ id: created[index]?.id, notes }]);
        const contained = await ids('orders', {
          field: 'notes',
          operator: 'Contains',
          value: Array.from(notes).slice(0, 8).join(''),
        });
        expect({ notes, contained }).toEqual({
          notes,
          contained: expect.arrayContaining([created[index]?.id]),
        });
      }
      expect(
        await ids('orders', { field: 'notes', operator: 'IContains', value: 'drop TABLE' }),
      ).toEqual([created[0]?.id]);
      await dataSource
        .getCollection('orders')
        .update(
          caller(),
          new Filter({ conditionTree: { field: 'notes', operator: 'In', value: hostile } }),
          { notes: hostile[0] },
        );
      expect(
        await ids('orders', { field: 'notes', operator: 'Equal', value: hostile[0] }),
      ).toHaveLength(hostile.length);
      await dataSource
        .getCollection('orders')
        .delete(
          caller(),
          new Filter({ conditionTree: { field: 'notes', operator: 'Equal', value: hostile[0] } }),
        );
      expect(await aggregate0()).toBeGreaterThanOrEqual(4);
      expect(
        (
          await list('customers', ['name'], {
            conditionTree: { field: 'id', operator: 'Equal', value: 3 },
          })
        )[0]?.name,
      ).toBe(HOSTILE_NAME);
    });

    const aggregate0 = async () =>
      (
        await dataSource
          .getCollection('customers')
          .aggregate(caller(), new Filter(), new Aggregation({ operation: 'Count' }))
      )[0]?.value as number;
  });

  describe('native queries', () => {
    it('runs SQL with bound $parameters on the registered connection', async () => {
      const rows = await dataSource.executeNativeQuery(
        'main',
        'SELECT email FROM customers WHERE tier = $tier OR email = $email ORDER BY email',
        { tier: 'gold', email: "x'; DROP TABLE customers;--" },
      );
      expect(rows).toEqual([{ email: 'ada@example.com' }]);
      const [first] = await dataSource.executeNativeQuery(
        'main',
        'SELECT placed_at FROM orders WHERE id = $id',
        { id: 1 },
      );
      expect(first?.placed_at).toBe('2024-01-31T23:30:00.000Z');
      const segment = await list('orders', ['id'], {
        liveQuerySegment: {
          connectionName: 'main',
          query: 'SELECT id FROM orders WHERE amount > $minimum',
          contextVariables: { minimum: 40 },
        },
        conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
        sort: [{ field: 'id', ascending: true }],
      });
      expect(segment).toEqual([{ id: 1 }, { id: 3 }]);
      const broken = await failure(() =>
        list('orders', ['id'], {
          liveQuerySegment: { connectionName: 'main', query: 'SELECT nope FROM nowhere' },
        }),
      );
      expect(isCanopyError(broken, { family: 'business' })).toBe(true);
      expect(broken.message).toContain(
        'An error occurred during the execution of the segment query',
      );
      const write = await failure(() =>
        dataSource.executeNativeQuery('main', 'DELETE FROM orders WHERE id = $id', { id: 1 }),
      );
      expect(isCanopyError(write, { family: 'validation' })).toBe(true);
      expect(write.message).toContain('The native query failed');
      expect(await ids('orders', { field: 'id', operator: 'Equal', value: 1 })).toEqual([1]);
      const unknown = await failure(() => dataSource.executeNativeQuery('other', 'SELECT 1'));
      expect(unknown.message).toContain("Unknown connection name 'other'");
    });
  });
}
