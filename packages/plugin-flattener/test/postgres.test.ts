import { type DataSource, Filter, type Plugin } from '@canopy/agent-core';
import { openSqlDataSource, type SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { flattenColumn, flattenJsonColumn, flattenRelation } from '../src';
import { buildShop, caller, list } from './shop';

const db = useTestDatabase('postgres');

/** PostgreSQL through datasource-sql: a jsonb column nested 3 levels, a two-hop relation path. */
describe('the flattener on PostgreSQL (jsonb, relation paths)', () => {
  let sql: SqlDataSource;
  let dataSource: DataSource;

  beforeAll(async () => {
    const { knex } = db();
    await knex.raw(`
      CREATE TABLE companies (id serial PRIMARY KEY, name text NOT NULL, country text);
      CREATE TABLE customers (
        id serial PRIMARY KEY,
        name text NOT NULL,
        company_id integer REFERENCES companies(id)
      );
      CREATE TABLE orders (
        id serial PRIMARY KEY,
        reference text NOT NULL,
        customer_id integer REFERENCES customers(id),
        tags text[],
        delivery jsonb,
        delivery_lat double precision GENERATED ALWAYS AS ((delivery #>> '{address,geo,lat}')::double precision) STORED
      );
      INSERT INTO companies (name, country) VALUES ('Acme', 'US'), ('Bistro', 'FR');
      INSERT INTO customers (name, company_id) VALUES ('Ada', 2), ('Bob', 1), ('Cy', NULL);
      INSERT INTO orders (reference, customer_id, delivery) VALUES
        ('A-1', 1, '{"carrier":"UPS","address":{"city":"Lyon","geo":{"lat":45.76,"lng":4.83}},"weight":2}'),
        ('B-2', 2, '{"carrier":"DHL","address":{"city":"Boston","geo":{"lat":42.36,"lng":-71.06}}}'),
        ('C-3', 3, '{"carrier":"UPS"}');
    `);
    sql = await openSqlDataSource(db().url);
    dataSource = await buildShop(
      (customizer) =>
        customizer.customizeCollection('orders', (orders) => {
          // native:start
          orders.use(flattenJsonColumn, {
            columnName: 'delivery',
            columnType: {
              carrier: 'String',
              address: { city: 'String', geo: { lat: 'Number', lng: 'Number' } },
            },
            nativeFields: { 'address.geo.lat': 'delivery_lat' },
          });
          // native:end
          orders
            .use(flattenRelation, { relationName: 'customer:company', include: ['name'] })
            .use(flattenRelation, { relationName: 'customer', include: ['name'] });
        }),
      sql,
    );
  }, 60_000);

  afterAll(async () => {
    await sql?.close();
  });

  const stored = async () =>
    (await db().knex.raw('SELECT id, delivery FROM orders ORDER BY id')).rows as {
      id: number;
      delivery: unknown;
    }[];

  it('exposes every jsonb leaf, the relation columns, and hides the jsonb and native columns', () => {
    const fields = dataSource.getCollection('orders').schema.fields;
    expect(Object.keys(fields).sort()).toEqual(
      [
        'id',
        'reference',
        'customer_id',
        'customer',
        'tags',
        'delivery@@@carrier',
        'delivery@@@address@@@city',
        'delivery@@@address@@@geo@@@lat',
        'delivery@@@address@@@geo@@@lng',
        'customer@@@company@@@name',
        'customer@@@name',
      ].sort(),
    );
  });

  it('reads three levels deep and through two hops', async () => {
    expect(
      await list(dataSource, 'orders', [
        'id',
        'delivery@@@address@@@city',
        'delivery@@@address@@@geo@@@lng',
        'customer@@@company@@@name',
      ]),
    ).toEqual([
      {
        id: 1,
        'delivery@@@address@@@city': 'Lyon',
        'delivery@@@address@@@geo@@@lng': 4.83,
        'customer@@@company@@@name': 'Bistro',
      },
      {
        id: 2,
        'delivery@@@address@@@city': 'Boston',
        'delivery@@@address@@@geo@@@lng': -71.06,
        'customer@@@company@@@name': 'Acme',
      },
      {
        id: 3,
        'delivery@@@address@@@city': null,
        'delivery@@@address@@@geo@@@lng': null,
        'customer@@@company@@@name': null,
      },
    ]);
  });

  it('creates a record from flattened keys only', async () => {
    const [created] = await dataSource.getCollection('orders').create(caller, [
      {
        reference: 'D-4',
        'delivery@@@carrier': 'GLS',
        'delivery@@@address@@@geo@@@lat': 48.85,
      },
    ]);
    const rows = await stored();
    expect(rows.find((row) => row.id === created?.id)?.delivery).toEqual({
      carrier: 'GLS',
      address: { geo: { lat: 48.85 } },
    });
    await dataSource
      .getCollection('orders')
      .delete(
        caller,
        new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: created?.id } }),
      );
  });

  it('updates one nested key on many records, leaving the siblings intact in each', async () => {
    await dataSource
      .getCollection('orders')
      .update(caller, new Filter(), { 'delivery@@@address@@@geo@@@lng': 0 });
    expect(await stored()).toEqual([
      {
        id: 1,
        delivery: {
          carrier: 'UPS',
          address: { city: 'Lyon', geo: { lat: 45.76, lng: 0 } },
          weight: 2,
        },
      },
      {
        id: 2,
        delivery: { carrier: 'DHL', address: { city: 'Boston', geo: { lat: 42.36, lng: 0 } } },
      },
      { id: 3, delivery: { carrier: 'UPS', address: { geo: { lng: 0 } } } },
    ]);
  });

  it('filters and sorts natively on a jsonb path mapped to a generated column', async () => {
    const queries: string[] = [];
    const onQuery = (query: { sql: string }) => queries.push(query.sql);
    sql.knex.on('query', onQuery);
    try {
      expect(
        await list(dataSource, 'orders', ['id', 'delivery@@@address@@@geo@@@lat'], {
          conditionTree: {
            field: 'delivery@@@address@@@geo@@@lat',
            operator: 'GreaterThan',
            value: 43,
          },
        }),
      ).toEqual([{ id: 1, 'delivery@@@address@@@geo@@@lat': 45.76 }]);
      expect(
        await list(dataSource, 'orders', ['id'], {
          conditionTree: { field: 'delivery@@@address@@@geo@@@lat', operator: 'Present' },
          sort: [{ field: 'delivery@@@address@@@geo@@@lat', ascending: true }],
        }),
      ).toEqual([{ id: 2 }, { id: 1 }]);
    } finally {
      sql.knex.off('query', onQuery);
    }
    // Both the condition and the order reach PostgreSQL: nothing was listed to filter in memory.
    expect(queries).toHaveLength(2);
    expect(queries[0]).toMatch(/"delivery_lat" > \$1/);
    expect(queries[1]).toMatch(/order by .*"delivery_lat" asc/i);
  });

  it('filters and sorts on the two-hop relation field in SQL, and writes through it', async () => {
    expect(
      await list(dataSource, 'orders', ['id'], {
        conditionTree: { field: 'customer@@@company@@@name', operator: 'Present' },
        sort: [{ field: 'customer@@@company@@@name', ascending: false }],
      }),
    ).toEqual([{ id: 1 }, { id: 2 }]);
    await dataSource
      .getCollection('orders')
      .update(caller, new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: 2 } }), {
        'customer@@@company@@@name': 'Acme Corp',
      });
    const { rows } = await db().knex.raw('SELECT name FROM companies ORDER BY id');
    expect(rows).toEqual([{ name: 'Acme Corp' }, { name: 'Bistro' }]);
  });

  it.each<[string, string, Plugin<never>, unknown, string]>([
    [
      'a missing column name',
      'orders',
      flattenColumn,
      {},
      "flattenColumn on 'orders': options.columnName is required",
    ],
    [
      'an unknown column',
      'orders',
      flattenColumn,
      { columnName: 'shipping' },
      "'orders.shipping' cannot be flattened (no such column).",
    ],
    [
      'an array column',
      'orders',
      flattenColumn,
      { columnName: 'tags' },
      "'orders.tags' cannot be flattened (array not supported).",
    ],
    [
      'a primitive column',
      'orders',
      flattenColumn,
      { columnName: 'reference' },
      "'orders.reference' cannot be flattened (primitive type 'String' not supported).",
    ],
    [
      'the jsonb column without a shape',
      'orders',
      flattenColumn,
      { columnName: 'delivery' },
      "'orders.delivery' cannot be flattened using flattenColumn please use flattenJsonColumn",
    ],
    [
      'a level below 1',
      'orders',
      flattenJsonColumn,
      { columnName: 'delivery', columnType: { carrier: 'String' }, level: 0 },
      "'orders.delivery' cannot be flattened: options.level must be greater than 0",
    ],
    [
      'an unknown include path',
      'orders',
      flattenColumn,
      { columnName: 'delivery', columnType: { carrier: 'String' }, include: ['address.city'] },
      "cannot add field 'delivery@@@address@@@city' (dependency not found",
    ],
    [
      'a non-object columnType',
      'orders',
      flattenJsonColumn,
      { columnName: 'delivery', columnType: 'String' },
      "'orders.delivery' cannot be flattened: options.columnType must be defined as json object",
    ],
    [
      'a relation that is a column',
      'orders',
      flattenRelation,
      { relationName: 'customer_id' },
      "'orders.customer_id' is a column, not a relation",
    ],
    [
      'a to-many relation',
      'customers',
      flattenRelation,
      { relationName: 'orders' },
      "'customers.orders' is not a ManyToOne or OneToOne relation (it is OneToMany)",
    ],
  ])('refuses %s at start', async (_case, collection, plugin, options, message) => {
    // A failed start closes the data sources it built: each case gets its own.
    const own = await openSqlDataSource(db().url, { introspection: sql.introspection });
    await expect(
      buildShop(
        (customizer) =>
          customizer.customizeCollection(collection, (c) => c.use(plugin, options as never)),
        own,
      ),
    ).rejects.toThrow(message);
    await own.close();
  });

  it('refuses a use at data-source level', async () => {
    const own = await openSqlDataSource(db().url, { introspection: sql.introspection });
    await expect(
      buildShop((customizer) => customizer.use(flattenRelation, { relationName: 'customer' }), own),
    ).rejects.toThrow('This plugin can only be called when customizing collections');
    await own.close();
  });
});
